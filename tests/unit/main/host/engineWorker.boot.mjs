// The engine worker run from its TypeScript sources (through tsx), for tests of a host over a real engine.
// A stream load with id `die-now` makes the worker exit at once with code 70, as a crash in the engine would
// (a stream load waits for its bytes, so no reply races the exit).
import { parentPort } from 'node:worker_threads'
import { register } from 'tsx/esm/api'

register()
// the engine's own listener first: messages that come before any listener would reach only this one
await import('../../../../src/main/engine/worker.ts')
parentPort.on('message', (call) => {
  if (call.method === 'load' && call.args[0] === 'die-now') process.exit(70)
})
