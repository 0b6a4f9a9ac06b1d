/**
 * The backends, in the order they are asked: the first whose `accepts` takes a capture replays it. A new source
 * (Metal, a console API) is one folder beside d3d12/ and vulkan/ and one line here.
 */
import type { CaptureHeader } from '../../shared/capture'
import type { CaptureStore } from '../ingest/store'
import type { Backend } from './backend'
import { d3d12Backend } from './d3d12/backend'
import { observedBackend } from './observed/backend'
import { vulkanBackend } from './vulkan/backend'

export const BACKENDS = [
  // first: the observed backend (analysis/observed/), traces of what a driver or an allocator did, shown as they
  // happened; a trace it takes is never replayed through a model here
  observedBackend,
  vulkanBackend,
  // D3D12 takes every capture the others did not
  d3d12Backend,
] as const satisfies readonly Backend[]

/** The backend that replays a capture: the first in `backends` that accepts its header. */
export function backendFor(header: CaptureHeader, store?: CaptureStore, backends: readonly Backend[] = BACKENDS): Backend {
  const backend = backends.find((b) => b.accepts(header, store))
  if (!backend) throw new Error(`no backend replays a capture with api "${header.api ?? 'd3d12'}"`)
  return backend
}

/** The backend of an id (RunSummary.backend), or undefined. */
export function backendById(id: string, backends: readonly Backend[] = BACKENDS): Backend | undefined {
  return backends.find((b) => b.id === id)
}
