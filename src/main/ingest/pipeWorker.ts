/** The worker thread of a pipelined load (pipeline.ts): the file in `workerData` read, and its store posted as it grows. */
import { parentPort, workerData } from 'node:worker_threads'
import { runPipedLoad, type PipeCommand, type PipeJob } from './pipeline'

const port = parentPort
if (!port) throw new Error('the ingest worker must run in a worker thread')
const stop = new AbortController()
const told = (command: PipeCommand) => {
  if (command?.type === 'stop') stop.abort()
}
port.on('message', told)
void runPipedLoad(workerData as PipeJob, (message, transfer) => port.postMessage(message, transfer), stop.signal).finally(() => {
  // the load is over: the worker ends once its last message is sent
  port.off('message', told)
  port.unref()
})
