/**
 * Every per-frame series a backend writes, described by data: its name (or a template such as
 * `heap.<heap>.<field>` with a matcher), unit, the timeline lane it is drawn in and its part there, its label (an
 * i18n key of the renderer), which backends write it, and whether a series that stayed zero over the whole run is
 * kept. The backends take their series names from here; the renderer builds its lanes from these descriptions and
 * the run's summary, never from the run's API. A new source writes series of a family described here (or adds a
 * family here) and gets its lanes without a change to the renderer.
 */
import { HEAP_TYPES, PLACEMENTS, type HeapType } from './model'

export type SeriesUnit = 'bytes' | 'count' | 'flag'

/** The timeline's lanes, in display order: one per memory heap, then residency, transients and the checks. */
export const SERIES_LANES = ['heap', 'residency', 'transient', 'checks'] as const
export type SeriesLane = (typeof SERIES_LANES)[number]

/** What a heap lane stacks: the bytes each layer holds, occupies, or what its live requests asked for. */
export const HEAP_MODES = ['heapBytes', 'occupiedBytes', 'requestedBytes'] as const
export type HeapMode = (typeof HEAP_MODES)[number]

/** The backends that write series today (a RunSummary's `backend`). */
export const BACKEND_IDS = ['d3d12', 'vulkan', 'observed'] as const

/**
 * A series' part in a heap lane. `held` and `requested` bound the waste band (several series of one lane add up);
 * `total` is the stack's top in its modes, the part the layers do not cover being the lane's remainder layer;
 * `layer` is one stacked layer in its modes.
 */
export type HeapPart = 'held' | 'requested' | 'total' | 'layer' | 'alignment' | 'poolFree' | 'pending' | 'budget' | 'memoryCount'
export type ResidencyPart = 'resident' | 'budget' | 'overBudget'
export type TransientPart = 'heap' | 'requested' | 'saving'
/** `rule`: one rule's own findings, listed by the lane's tooltip; `total`: the findings of all rules. */
export type ChecksPart = 'hazards' | 'warnings' | 'total' | 'rule'

export interface HeapRole {
  part: HeapPart
  /** The modes it is drawn in; absent: every mode. */
  modes?: readonly HeapMode[]
}

/** A heap lane's own words for its bytes held, in use, and the gap between (i18n keys). */
export interface HeapLaneWords {
  held: string
  requested: string
  waste: string
}

/** One heap lane of a run, as a series' family places it. */
export interface HeapLaneInfo {
  key: string
  title: string
  /** What the memory is, beside the title where the renderer has words for it (an i18n key). */
  note?: string
  /** The lane's share of the timeline's height; absent: the first lane is the main one, the others smaller. */
  weight?: number
  /** Lanes sort by it (the heap's index among the run's heaps). */
  order: number
  words: HeapLaneWords
  /** The layer the stack's `total` holds beyond the other layers (D3D12's committed resources). */
  remainder?: string
  /** Draws the residency budget (DEFAULT: the heap the budget is about). */
  residencyBudget?: boolean
  /** A lane that held nothing over the whole run is folded to a thin row (never the first). */
  foldsEmpty?: boolean
  /** The most memory objects the device allows: drawn beside the lane's `memoryCount`. */
  memoryLimit?: number
}

/** What the descriptors read from a run beyond the series' names: the device's heaps and memory types. */
export interface SeriesRunInfo {
  vulkan?: {
    heaps: { index: number; name: string; flags: string[] }[]
    types: { index: number; name: string; heapIndex: number }[]
    maxMemoryAllocationCount: number
  }
}

/** Where one series goes: its lane and its parts there. */
export interface SeriesPlace {
  lane: SeriesLane
  /** The heap lane (lane `heap`). */
  heap?: HeapLaneInfo
  heapRoles?: readonly HeapRole[]
  /** A layer's name and its order in the stack (bottom first); outside the lane's total (the application's heaps). */
  layer?: { key: string; order: number; outsideTotal?: true }
  residency?: ResidencyPart
  transient?: TransientPart
  checks?: ChecksPart
}

export interface SeriesKind {
  /** The family: 'heap', 'placement', 'vkheap', … */
  id: string
  /** The name, or its template: `<part>` stands for one dot-free segment. */
  name: string
  unit: SeriesUnit | ((parts: Record<string, string>) => SeriesUnit)
  /** The lane it is drawn in; null: it is not drawn in a lane of its own (overview, figures, legends). */
  lane: SeriesLane | null
  /** The renderer's i18n key of its label (with the template's parts as parameters). */
  label: string
  /** The backends that write it. */
  backends: readonly string[]
  /** Kept when it stayed zero over the whole run: always, never, by these backends only, or by its name's parts. */
  keepEmpty: boolean | readonly string[] | ((parts: Record<string, string>) => boolean)
  /** Its place in its lane, from the name's parts and the run; null: the run gives it none. */
  place?: (parts: Record<string, string>, run: SeriesRunInfo) => SeriesPlace | null
  /** One part of the run's `total.heapBytes` (a comparison stacks the parts of two runs): its name and order. */
  part?: (parts: Record<string, string>, run: SeriesRunInfo) => { key: string; order: number } | null
}

/** Memory the application placed in its own heaps (manual heaps, imported dumps), outside the model's pools. */
export const APPLICATION = 'Application'

/**
 * The heap each placement lives in. Committed is the one placement on every heap type (committed DEFAULT,
 * UPLOAD and READBACK resources), so a heap lane derives its Committed layer as the heap's total minus the rows
 * that are only on that heap.
 */
export const PLACEMENT_HEAP: Record<string, HeapType> = {
  SharedBufferPool: 'DEFAULT',
  PlacedBufferPool: 'DEFAULT',
  AccelerationStructurePool: 'DEFAULT',
  TextureReadOnlyPool: 'DEFAULT',
  TextureReadOnly4KPool: 'DEFAULT',
  TextureRTPool: 'DEFAULT',
  TextureUAVPool: 'DEFAULT',
  Reserved: 'DEFAULT',
  Transient: 'DEFAULT',
  UploadSmallBlock: 'UPLOAD',
  UploadBigBlock: 'UPLOAD',
  FastAllocatorPage: 'UPLOAD',
  FastConstantPage: 'UPLOAD',
  ReadbackPool: 'READBACK',
}

/** The order placements stack in, bottom to top (the model's placement order, then the UPLOAD page allocators). */
const PLACEMENT_ORDER = Object.keys(PLACEMENT_HEAP)
const LAYER_ORDER_APPLICATION = 1000
/** The placements whose heap bytes add up to a D3D12 run's total, in the model's order. */
const TOTAL_PARTS: readonly string[] = [...PLACEMENTS, 'FastAllocatorPage', 'FastConstantPage']

/** Series names of the D3D12 and Vulkan replays; the rest come from the templates below. */
export const SERIES_NAME = {
  heap: (heap: string, field: string) => `heap.${heap}.${field}`,
  placement: (placement: string, field: string) => `placement.${placement}.${field}`,
  tag: (tag: string, field: 'occupiedBytes' | 'requestedBytes' | 'count') => `tag.${tag}.${field}`,
  manual: (heap: string, field: 'heapBytes' | 'placedBytes') => `manual.${heap}.${field}`,
  vkHeap: (heap: number, field: string) => `vkheap.${heap}.${field}`,
  vkType: (type: number, field: string) => `vktype.${type}.${field}`,
  check: (rule: string) => `check.${rule}`,
}

export const TOTAL_SERIES = {
  heapBytes: 'total.heapBytes',
  occupiedBytes: 'total.occupiedBytes',
  requestedBytes: 'total.requestedBytes',
} as const

export const RESIDENCY_SERIES = {
  resident: 'residency.residentBytes',
  budget: 'residency.budgetBytes',
  evictedBytes: 'residency.evictedBytes',
  evictions: 'residency.evictions',
  madeResidentBytes: 'residency.madeResidentBytes',
  makeResident: 'residency.makeResident',
  overBudget: 'residency.overBudget',
} as const

export const TRANSIENT_SERIES = {
  heapBytes: 'transient.heapBytes',
  requestedBytes: 'transient.requestedBytes',
  highWaterBytes: 'transient.highWaterBytes',
  savingBytes: 'transient.savingBytes',
  executions: 'transient.executions',
} as const

export const UPLOAD_SERIES = {
  bytes: 'upload.bytes',
  lockBytes: 'upload.lockBytes',
} as const

/** Where a Vulkan run's per-frame traffic of `upload` and `lock` records went. */
export const VULKAN_UPLOAD_SERIES = {
  linearBytes: 'upload.linearBytes',
  stagingBytes: 'upload.stagingBytes',
  overflowBytes: 'upload.overflowBytes',
} as const

/** Findings of the checks per frame: the timeline marks them (a rule's own findings: `SERIES_NAME.check(rule)`). */
export const CHECK_SERIES = {
  total: 'check.total',
  hazards: 'check.hazards',
  warnings: 'check.warnings',
} as const

export const LIVE_SERIES = {
  requested: 'requested.live',
  count: 'resources.live',
} as const

const D3D12 = ['d3d12'] as const
const VULKAN = ['vulkan'] as const
const MODELS = ['d3d12', 'vulkan'] as const
const ALL = BACKEND_IDS

/** DEFAULT holds most of a frame's memory: its lane is the tallest. */
const D3D12_WEIGHT: Record<HeapType, number> = { DEFAULT: 3.2, UPLOAD: 1.5, READBACK: 1 }

const D3D12_WORDS: HeapLaneWords = { held: 'tip.held', requested: 'tip.requested', waste: 'tip.waste' }
const VULKAN_WORDS: HeapLaneWords = { held: 'tip.vkAllocated', requested: 'tip.vkUsed', waste: 'tip.vkFree' }

function d3d12Heap(heap: string): HeapLaneInfo | null {
  const order = HEAP_TYPES.indexOf(heap as HeapType)
  if (order < 0) return null
  return { key: heap, title: heap, weight: D3D12_WEIGHT[heap as HeapType], order, words: D3D12_WORDS, remainder: 'Committed', residencyBudget: heap === 'DEFAULT', foldsEmpty: true }
}

function vulkanHeap(index: number, run: SeriesRunInfo): HeapLaneInfo | null {
  const info = run.vulkan?.heaps.find((h) => h.index === index)
  if (!info) return null
  return {
    key: `vk.${index}`,
    title: info.flags.length ? `${info.name} · ${info.flags.join('|')}` : info.name,
    order: index,
    words: VULKAN_WORDS,
    memoryLimit: run.vulkan!.maxMemoryAllocationCount,
    foldsEmpty: true,
  }
}

const OBSERVED_WORDS: HeapLaneWords = { held: 'tip.held', requested: 'tip.placed', waste: 'tip.unplaced' }

/** A memory an observed trace names (RMV's `local`, a VMA memory type, a GPGMM segment): a lane of its own, in the order the run's series give. */
function observedMemory(memory: string): HeapLaneInfo {
  return { key: `memory.${memory}`, title: memory, note: `memoryKind.${memory}`, order: HEAP_TYPES.length, words: OBSERVED_WORDS, foldsEmpty: true }
}

const isMode = (field: string): field is HeapMode => (HEAP_MODES as readonly string[]).includes(field)
const heapPlace = (heap: HeapLaneInfo | null, heapRoles: HeapRole[], layer?: SeriesPlace['layer']): SeriesPlace | null =>
  heap && heapRoles.length ? { lane: 'heap', heap, heapRoles, ...(layer ? { layer } : {}) } : null

const D3D12_HEAP_ROLES: Record<string, HeapRole[]> = {
  heapBytes: [{ part: 'held' }, { part: 'total', modes: ['heapBytes'] }],
  occupiedBytes: [{ part: 'total', modes: ['occupiedBytes'] }],
  requestedBytes: [{ part: 'requested' }, { part: 'total', modes: ['requestedBytes'] }],
  alignmentWasteBytes: [{ part: 'alignment' }],
  poolFreeBytes: [{ part: 'poolFree' }],
  pendingFreeBytes: [{ part: 'pending' }],
}

const VULKAN_HEAP_ROLES: Record<string, HeapRole[]> = {
  allocatedBytes: [{ part: 'held' }],
  usedBytes: [{ part: 'requested' }],
  pendingFreeBytes: [{ part: 'pending' }],
  memoryCount: [{ part: 'memoryCount' }],
  budgetBytes: [{ part: 'budget' }],
}

/** A memory type stacks the memory it allocated, or the part in use. */
const VULKAN_TYPE_LAYER: Record<string, readonly HeapMode[]> = {
  allocatedBytes: ['heapBytes'],
  usedBytes: ['occupiedBytes', 'requestedBytes'],
}

/** The fields of a Vulkan heap kept when they stayed zero: a heap the run never used still shows its lane. */
const VULKAN_HEAP_KEPT = new Set(['allocatedBytes', 'usedBytes', 'freeBytes', 'memoryCount'])

const byUnit = (counts: readonly string[]) => (parts: Record<string, string>) => (counts.includes(parts.field) ? 'count' : 'bytes')

/** Every family of series, the lanes' parts first. */
export const SERIES_KINDS: readonly SeriesKind[] = [
  {
    id: 'heap',
    name: 'heap.<heap>.<field>',
    unit: 'bytes',
    lane: 'heap',
    label: 'series.heap',
    backends: ALL,
    keepEmpty: true,
    place: (p) => heapPlace(d3d12Heap(p.heap), D3D12_HEAP_ROLES[p.field] ?? []),
  },
  {
    id: 'placement',
    name: 'placement.<placement>.<field>',
    unit: 'bytes',
    lane: 'heap',
    label: 'series.placement',
    backends: D3D12,
    keepEmpty: false,
    place: (p) => {
      const heap = PLACEMENT_HEAP[p.placement]
      if (!heap || !isMode(p.field)) return null
      return heapPlace(d3d12Heap(heap), [{ part: 'layer', modes: [p.field] }], { key: p.placement, order: PLACEMENT_ORDER.indexOf(p.placement) })
    },
    part: (p) => {
      const order = TOTAL_PARTS.indexOf(p.placement)
      return p.field === 'heapBytes' && order >= 0 ? { key: p.placement, order } : null
    },
  },
  {
    id: 'manual',
    name: 'manual.<heap>.<field>',
    unit: 'bytes',
    lane: 'heap',
    label: 'series.manual',
    backends: ALL,
    keepEmpty: false,
    place: (p) => {
      const layer = { key: APPLICATION, order: LAYER_ORDER_APPLICATION, outsideTotal: true as const }
      if (p.field === 'heapBytes') return heapPlace(d3d12Heap(p.heap), [{ part: 'held' }, { part: 'layer', modes: ['heapBytes'] }], layer)
      if (p.field === 'placedBytes') return heapPlace(d3d12Heap(p.heap), [{ part: 'requested' }, { part: 'layer', modes: ['occupiedBytes', 'requestedBytes'] }], layer)
      return null
    },
  },
  {
    id: 'vkheap',
    name: 'vkheap.<heap>.<field>',
    unit: byUnit(['memoryCount']),
    lane: 'heap',
    label: 'series.vkheap',
    backends: VULKAN,
    keepEmpty: (p) => VULKAN_HEAP_KEPT.has(p.field),
    place: (p, run) => heapPlace(vulkanHeap(Number(p.heap), run), VULKAN_HEAP_ROLES[p.field] ?? []),
  },
  {
    id: 'vktype',
    name: 'vktype.<type>.<field>',
    unit: byUnit(['memoryCount', 'allocationCount']),
    lane: 'heap',
    label: 'series.vktype',
    backends: VULKAN,
    keepEmpty: false,
    place: (p, run) => {
      const type = run.vulkan?.types.find((t) => t.index === Number(p.type))
      const modes = VULKAN_TYPE_LAYER[p.field]
      if (!type || !modes) return null
      return heapPlace(vulkanHeap(type.heapIndex, run), [{ part: 'layer', modes }], { key: type.name, order: type.index })
    },
    part: (p, run) => {
      const type = run.vulkan?.types.find((t) => t.index === Number(p.type))
      return type && p.field === 'allocatedBytes' ? { key: type.name, order: TOTAL_PARTS.length + type.index } : null
    },
  },
  {
    id: 'memory',
    name: 'memory.<memory>.<field>',
    unit: 'bytes',
    lane: 'heap',
    label: 'series.memory',
    backends: ['observed'],
    keepEmpty: true,
    place: (p) => {
      const heap = observedMemory(p.memory)
      const layer = { key: p.memory, order: 0 }
      if (p.field === 'heapBytes') return heapPlace(heap, [{ part: 'held' }, { part: 'layer', modes: ['heapBytes'] }], layer)
      if (p.field === 'placedBytes') return heapPlace(heap, [{ part: 'requested' }, { part: 'layer', modes: ['occupiedBytes', 'requestedBytes'] }], layer)
      return null
    },
  },
  ...Object.entries(RESIDENCY_SERIES).map(([key, name]) => ({
    id: `residency.${key}`,
    name,
    unit: key === 'overBudget' ? ('flag' as const) : key === 'evictions' || key === 'makeResident' ? ('count' as const) : ('bytes' as const),
    lane: 'residency' as const,
    label: `series.residency.${key}`,
    backends: D3D12,
    keepEmpty: true,
    place: () => {
      const part: ResidencyPart | undefined = key === 'resident' ? 'resident' : key === 'budget' || key === 'overBudget' ? key : undefined
      return part ? { lane: 'residency' as const, residency: part } : null
    },
  })),
  ...Object.entries(TRANSIENT_SERIES).map(([key, name]) => ({
    id: `transient.${key}`,
    name,
    unit: key === 'executions' ? ('count' as const) : ('bytes' as const),
    lane: 'transient' as const,
    label: `series.transient.${key}`,
    backends: D3D12,
    keepEmpty: true,
    place: () => {
      const part: TransientPart | undefined = key === 'heapBytes' ? 'heap' : key === 'requestedBytes' ? 'requested' : key === 'savingBytes' ? 'saving' : undefined
      return part ? { lane: 'transient' as const, transient: part } : null
    },
  })),
  ...Object.entries(CHECK_SERIES).map(([key, name]) => ({
    id: `check.${key}`,
    name,
    unit: 'count' as const,
    lane: 'checks' as const,
    label: `series.check.${key}`,
    backends: MODELS,
    keepEmpty: true,
    place: (): SeriesPlace => ({ lane: 'checks', checks: key as ChecksPart }),
  })),
  {
    id: 'check',
    name: 'check.<rule>',
    unit: 'count',
    lane: 'checks',
    label: 'series.check.rule',
    backends: MODELS,
    keepEmpty: true,
    place: (): SeriesPlace => ({ lane: 'checks', checks: 'rule' }),
  },
  { id: 'total', name: 'total.<field>', unit: 'bytes', lane: null, label: 'series.total', backends: ALL, keepEmpty: true },
  { id: 'live.requested', name: LIVE_SERIES.requested, unit: 'bytes', lane: null, label: 'series.liveRequested', backends: ALL, keepEmpty: true },
  { id: 'live.count', name: LIVE_SERIES.count, unit: 'count', lane: null, label: 'series.liveCount', backends: ALL, keepEmpty: true },
  { id: 'upload.bytes', name: UPLOAD_SERIES.bytes, unit: 'bytes', lane: null, label: 'series.upload.bytes', backends: MODELS, keepEmpty: true },
  { id: 'upload.lockBytes', name: UPLOAD_SERIES.lockBytes, unit: 'bytes', lane: null, label: 'series.upload.lockBytes', backends: MODELS, keepEmpty: D3D12 },
  ...Object.entries(VULKAN_UPLOAD_SERIES).map(([key, name]) => ({
    id: `upload.${key}`,
    name,
    unit: 'bytes' as const,
    lane: null,
    label: `series.upload.${key}`,
    backends: VULKAN,
    keepEmpty: false,
  })),
  { id: 'tag', name: 'tag.<tag>.<field>', unit: byUnit(['count']), lane: null, label: 'series.tag', backends: MODELS, keepEmpty: false },
]

interface Matcher {
  kind: SeriesKind
  pattern: RegExp
  parts: string[]
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const MATCHERS: Matcher[] = SERIES_KINDS.map((kind) => {
  const parts: string[] = []
  // a tag's or a memory's name may hold dots: the last part of a template is a field without dots, an inner one takes the rest
  // a tag's or a memory's name may hold dots
  const source = kind.name
    .split(/(<[a-z]+>)/i)
    .map((piece) => {
      const m = /^<([a-z]+)>$/i.exec(piece)
      if (!m) return escape(piece)
      parts.push(m[1])
      return m[1] === 'tag' || m[1] === 'memory' ? '(.+)' : '([^.]+)'
    })
    .join('')
  return { kind, pattern: new RegExp(`^${source}$`), parts }
})

export interface SeriesDescription {
  name: string
  kind: SeriesKind
  unit: SeriesUnit
  lane: SeriesLane | null
  label: string
  /** The template's parts of this name (`heap`, `field`, …). */
  parts: Record<string, string>
  backends: readonly string[]
  keepEmpty: boolean | readonly string[]
}

/** What a series is: its family's descriptor and the parts of its name; null for a name no family describes. */
export function describeSeries(name: string): SeriesDescription | null {
  for (const { kind, pattern, parts: names } of MATCHERS) {
    const m = pattern.exec(name)
    if (!m) continue
    const parts: Record<string, string> = {}
    names.forEach((p, i) => (parts[p] = m[i + 1]))
    const unit = typeof kind.unit === 'function' ? kind.unit(parts) : kind.unit
    const keepEmpty = typeof kind.keepEmpty === 'function' ? kind.keepEmpty(parts) : kind.keepEmpty
    return { name, kind, unit, lane: kind.lane, label: kind.label, parts, backends: kind.backends, keepEmpty }
  }
  return null
}

/** Whether `backend` keeps the series `name` when it stayed zero over the whole run (a name no family describes: kept). */
export function keepsEmpty(name: string, backend: string): boolean {
  const d = describeSeries(name)
  if (!d) return true
  return typeof d.keepEmpty === 'boolean' ? d.keepEmpty : d.keepEmpty.includes(backend)
}

/** Where a series goes in the timeline's lanes for this run; null when it is drawn in none. */
export function placeSeries(name: string, run: SeriesRunInfo): SeriesPlace | null {
  const d = describeSeries(name)
  return d?.kind.place?.(d.parts, run) ?? null
}

/** Which part of the run's `total.heapBytes` a series is; null when it is none. */
export function totalPartOf(name: string, run: SeriesRunInfo): { key: string; order: number } | null {
  const d = describeSeries(name)
  return d?.kind.part?.(d.parts, run) ?? null
}
