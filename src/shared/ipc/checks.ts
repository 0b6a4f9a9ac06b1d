/** Checks: hazards and warnings a page at a time, and the placed-resource layouts of a frame. */
import type { Bytes } from '../units'

export interface HazardsQuery {
  runId: string
  offset: number
  limit: number
  /** Only hazards, or only warnings; both when absent. */
  severity?: 'hazard' | 'warning'
}

/**
 * A finding of the checks: an aliasing hazard (docs/cli.md `check`'s hazards) or a Vulkan API-usage warning (its
 * rules), in capture order.
 */
export interface HazardEntry {
  /** Frame index, and the capture's number of that frame. */
  frame: number
  frameNumber: number
  /** access-inactive, rt-not-initialized, barrier-missing; or a Vulkan rule (bind-misaligned, …). */
  rule: string
  severity: 'hazard' | 'warning'
  /** The resource accessed (or bound, written) first, then the others involved. */
  resources: number[]
  /** Their names in the capture ('' for an unnamed one), as the engine's pages give them. */
  names?: string[]
  /** The capture's heap (application memory) id, when the finding is in one. */
  heap: number | null
  /** Heap bytes [start, end) involved, when known. */
  range: [Bytes, Bytes] | null
  message: string
}

export interface HazardsAnswer {
  runId: string
  /** Entries matching the query. */
  total: number
  offset: number
  entries: HazardEntry[]
  aliasing: 'simple' | 'advanced'
  /** Hazards by rule, and Vulkan warnings by rule, over the whole run. */
  hazardRules: Record<string, number>
  warnings: Record<string, number>
}

export interface PlacementsQuery {
  runId: string
  /** Frame index. */
  frame: number
}

/** What a step of a frame's placed-resource timeline is: an aliasing barrier, a GPU access, a submit. */
export const PLACEMENT_STEPS = ['barrier', 'access', 'submit'] as const

/**
 * An application heap during one frame (a manual D3D12 heap, Vulkan application memory): each resource placed in
 * it as a rectangle of its bytes against the frame's steps, and which of them share bytes.
 */
export interface PlacedHeapLayout {
  /** The capture's heap id. */
  id: number
  name: string
  /** From the heap record; a heap only named by `placed` records has its resources' reach. */
  size: Bytes
  /** The D3D12 heap type (default, upload, readback), as the heap record gives it. */
  type: string
  /** Steps [from, to) the heap lived in the frame. */
  from: number
  to: number
  resources: {
    id: Float64Array
    /** Heap bytes [offset, offset + size). */
    offset: Float64Array
    size: Float64Array
    /** Steps [from, to) the resource was placed in the frame. */
    from: Int32Array
    to: Int32Array
    texture: Uint8Array
    /** 1 render target, 2 depth-stencil, 0 neither: those must be initialized after activation. */
    target: Uint8Array
    name: string[]
  }
  /** Simple model: spans [from, to) each resource was active, as (resource index, from, to) triples. */
  active: Int32Array
  /** Pairs of resource indices (a, b) sharing bytes, flattened. */
  overlaps: Int32Array
}

/** An aliasing hazard of the frame where it happened: the step, and the resources as indices of the layout. */
export interface PlacementHazard {
  /** access-inactive, rt-not-initialized, barrier-missing. */
  rule: string
  /** The capture's resource ids, the one accessed first, as the hazards list names them. */
  resources: number[]
  /** Index in `heaps` of the heap, and of each resource in its `resources` (-1: no longer placed). */
  heapIndex: number
  indices: number[]
  heap: number
  range: [Bytes, Bytes]
  /** The step of the access that broke the rule. */
  step: number
  message: string
}

/**
 * A frame of placed resources in application heaps: time runs along the frame's steps (its aliasing barriers,
 * GPU accesses to placed resources and submits, in capture order), bytes down each heap.
 */
export interface PlacementsAnswer {
  runId: string
  frame: number
  aliasing: 'simple' | 'advanced'
  /** Steps shown; a frame with more stops marking at MAX and says `truncated`. */
  steps: number
  /** PLACEMENT_STEPS index of each step. */
  stepKind: Uint8Array
  heaps: PlacedHeapLayout[]
  /** GPU accesses: the heap and resource index, the step, the ACCESS_OPS index. */
  accesses: { heap: Int32Array; resource: Int32Array; step: Int32Array; op: Uint8Array }
  /** Aliasing barriers: the step, and the heap and resource index of `after` and of `before` (-1: none, or not placed). */
  barriers: { step: Int32Array; afterHeap: Int32Array; after: Int32Array; beforeHeap: Int32Array; before: Int32Array }
  hazards: PlacementHazard[]
  truncated: boolean
}
