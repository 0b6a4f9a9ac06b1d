/** The engine's worker thread: a LocalEngine answering the calls of a WorkerEngine. */
import { parentPort } from 'node:worker_threads'
import type { LoadProgress, PlaybackFrame, PlaybackRequest } from '../../shared/ipc'
import { LocalEngine, type FollowSource, type LoadSource } from './engine'
import { transferables, type EngineCall, type EngineReply } from './protocol'

const port = parentPort
if (!port) throw new Error('the engine worker must run in a worker thread')
const engine = new LocalEngine()

const post = (reply: EngineReply) => port.postMessage(reply, transferables(reply))
const progress = (p: LoadProgress) => post({ event: 'progress', progress: p })
const playback = (frame: PlaybackFrame) => post({ event: 'playback', frame })

function dispatch(call: EngineCall): Promise<unknown> {
  const a = call.args
  switch (call.method) {
    case 'load':
      return engine.load(a[0] as string, a[1] as LoadSource, progress)
    case 'follow':
      return engine.follow(a[0] as string, a[1] as FollowSource, progress)
    case 'rerun':
      return engine.rerun(a[0] as string, a[1] as string, a[2] as Record<string, string>, progress)
    case 'startPlayback':
      return engine.startPlayback(a[0] as PlaybackRequest, playback)
    default: {
      const method = engine[call.method] as (...args: unknown[]) => Promise<unknown>
      return method.apply(engine, a)
    }
  }
}

port.on('message', (call: EngineCall) => {
  dispatch(call).then(
    (value) => post({ id: call.id, ok: true, value }),
    (err: unknown) => post({ id: call.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  )
})
