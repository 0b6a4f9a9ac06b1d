/** The engine's worker thread: a LocalEngine answering the calls of a WorkerEngine. */
import { parentPort } from 'node:worker_threads'
import type { LoadProgress, SeriesQuery } from '../../shared/ipc'
import { LocalEngine, type LoadSource } from './engine'
import { transferables, type EngineCall, type EngineReply } from './protocol'

const port = parentPort
if (!port) throw new Error('the engine worker must run in a worker thread')
const engine = new LocalEngine()

const post = (reply: EngineReply) => port.postMessage(reply, transferables(reply))

async function dispatch(call: EngineCall): Promise<unknown> {
  const a = call.args
  switch (call.method) {
    case 'load':
      return engine.load(a[0] as string, a[1] as LoadSource, (progress: LoadProgress) => post({ event: 'progress', progress }))
    case 'feed':
      return engine.feed(a[0] as string, a[1] as Uint8Array | null)
    case 'cancel':
      return engine.cancel(a[0] as string)
    case 'close':
      return engine.close(a[0] as string)
    case 'summary':
      return engine.summary(a[0] as string)
    case 'series':
      return engine.series(a[0] as SeriesQuery)
    case 'dispose':
      return engine.dispose()
  }
}

port.on('message', (call: EngineCall) => {
  dispatch(call).then(
    (value) => post({ id: call.id, ok: true, value }),
    (err: unknown) => post({ id: call.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  )
})
