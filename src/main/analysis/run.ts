/**
 * A whole replay of a loaded capture by the backend that accepts it, with its snapshots and its report: what
 * `heapscope report`, `diff` and `history add` compute, so their figures are one computation. Bad `--config`
 * pairs throw ConfigError.
 */
import { ConfigError } from '../../shared/model'
import type { LoadResult } from '../ingest/read'
import type { Backend, ConfigOverrides } from './backend'
import { BACKENDS, backendFor } from './backends'

/** `--config` pairs as the backend's overrides; a backend that runs no model takes none. */
function overridesOf(backend: Backend, pairs: readonly string[]): ConfigOverrides {
  if (backend.config) return backend.config.pairs(pairs)
  if (pairs.length > 0) throw new ConfigError(`--config does not apply: the ${backend.id} backend runs no model`)
  return {}
}

export interface ReplayCaptureOptions {
  /**
   * false: keep no checkpoints (BackendReplayOptions.checkpoints), for a caller that reads the report, series,
   * residency and resource rows but asks for no snapshot: the same figures, byte for byte, sooner.
   */
  checkpoints?: boolean
}

export async function replayCapture(result: LoadResult, pairs: readonly string[], options: ReplayCaptureOptions = {}) {
  const store = result.store
  const backend = backendFor(store.header, store, BACKENDS)
  const started = backend.replay(store, { overrides: overridesOf(backend, pairs), checkpoints: options.checkpoints })
  await started.done
  const replay = started.run
  return { backend, replay, snapshots: replay.snapshots, report: replay.report(result) }
}

export type ReplayedCapture = Awaited<ReturnType<typeof replayCapture>>
