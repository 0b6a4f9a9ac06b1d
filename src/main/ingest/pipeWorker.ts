/**
 * The worker thread of a pipelined load (pipeline.ts): each file it is sent read, and its store posted as it grows.
 * It waits for the next load once one has ended; a stopped load ends it.
 */
import { parentPort } from 'node:worker_threads'
import { runPipedLoad, type PipeCommand } from './pipeline'

const port = parentPort
if (!port) throw new Error('the ingest worker must run in a worker thread')
/** What stops the load under way. */
let stop: AbortController | undefined
port.on('message', (command: PipeCommand) => {
  if (command?.type === 'stop') {
    stop?.abort()
    return
  }
  if (command?.type !== 'load') return
  const own = new AbortController()
  stop = own
  void runPipedLoad(command.job, (message, transfer) => port.postMessage(message, transfer), own.signal).finally(() => {
    if (stop === own) stop = undefined
    // a stopped worker ends once its last message is sent
    if (own.signal.aborted) port.close()
  })
})
