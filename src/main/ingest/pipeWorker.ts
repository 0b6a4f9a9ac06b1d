/** The worker thread of a pipelined load (pipeline.ts): the file in `workerData` read, and its store posted as it grows. */
import { parentPort, workerData } from 'node:worker_threads'
import { runPipedLoad, type PipeJob } from './pipeline'

const port = parentPort
if (!port) throw new Error('the ingest worker must run in a worker thread')
void runPipedLoad(workerData as PipeJob, (message, transfer) => port.postMessage(message, transfer))
