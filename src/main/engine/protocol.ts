/** Messages between a WorkerEngine and its worker thread. */
import type { LoadProgress, PlaybackFrame } from '../../shared/ipc'
import type { Engine } from './engine'

export type EngineMethod = Exclude<keyof Engine, 'dispose'> | 'dispose'

export interface EngineCall {
  id: number
  method: EngineMethod
  args: unknown[]
}

export type EngineReply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string }
  | { event: 'progress'; progress: LoadProgress }
  | { event: 'playback'; frame: PlaybackFrame }

/** Array buffers in a value that can be moved rather than copied (typed arrays that own their whole buffer). */
export function transferables(value: unknown, out: ArrayBuffer[] = [], depth = 0): ArrayBuffer[] {
  if (depth > 6 || value === null || typeof value !== 'object') return out
  if (ArrayBuffer.isView(value)) {
    const buffer = value.buffer
    if (buffer instanceof ArrayBuffer && value.byteOffset === 0 && value.byteLength === buffer.byteLength) {
      if (!out.includes(buffer)) out.push(buffer)
    }
    return out
  }
  for (const v of Object.values(value)) transferables(v, out, depth + 1)
  return out
}
