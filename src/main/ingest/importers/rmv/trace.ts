/** parseRmv: bytes of an .rmv file → RmvTrace. Pure: no Node imports, so it runs in a worker as it is. */
import { readContainer, type RmvDecompress } from './container'
import { readTraceInfo } from './info'
import { decodeStreams } from './tokens'
import {
  RMV_HEAP_PREFERENCES,
  RMV_MISC_TYPES,
  RMV_OWNERS,
  RMV_PAGE_SIZES,
  RMV_PAGE_TABLE_UPDATE_TYPES,
  RMV_RESOURCE_TYPES,
  TOKEN,
  type RmvHeap,
  type RmvHeapPreference,
  type RmvMiscType,
  type RmvOwner,
  type RmvPageTableUpdateType,
  type RmvResourceCreate,
  type RmvSnapshot,
  type RmvTrace,
  type RmvUserdata,
} from './types'

export interface ParseRmvOptions {
  /** A zstd decoder for compressed RDF chunks (the importer gives zstd.ts's); without one they are an error. */
  decompress?: RmvDecompress
}

/** Ticks per second assumed when a trace states no clock frequency anywhere. */
const FALLBACK_FREQUENCY = 1e9

export function parseRmv(bytes: Uint8Array, options: ParseRmvOptions = {}): RmvTrace {
  const container = readContainer(bytes, options.decompress)
  const info = readTraceInfo(container)
  const decoded = decodeStreams(info.streams)
  const { events } = decoded

  let startClock = Infinity
  let endClock = -Infinity
  for (const s of decoded.perStream) {
    if (s.firstClock !== undefined) {
      startClock = Math.min(startClock, s.firstClock)
      endClock = Math.max(endClock, s.lastClock)
    }
  }
  if (!Number.isFinite(startClock)) startClock = endClock = 0
  const frequency = decoded.perStream.find((s) => s.frequency)?.frequency || info.frequency || FALLBACK_FREQUENCY
  const toMs = (clock: number): number => ((clock - startClock) * 1000) / frequency

  const heapSizes: Record<RmvHeap, number> = { local: 0, invisible: 0, system: 0 }
  for (const segment of info.segments) heapSizes[segment.heap] += segment.size

  const snapshots: RmvSnapshot[] = info.snapshots.map((s) => ({ ...s, time: toMs(s.clock), source: 'chunk' }))
  for (let i = 0; i < events.length; i++) {
    if (events.kind[i] !== TOKEN.userdata) continue
    const u = decoded.userdata[events.ref[i]]
    if (u.type === 'snapshot') snapshots.push({ name: u.name ?? '', clock: events.clock[i], time: toMs(events.clock[i]), source: 'token' })
  }

  let api = info.api
  let apiSource: RmvTrace['apiSource'] = api ? 'chunk' : undefined
  if (!api) {
    api = apiFromTokens(decoded.creates, decoded.userdata)
    if (api) apiSource = 'tokens'
  }

  return {
    container: container.kind,
    containerVersion: container.version,
    ...(container.truncated ? { truncated: container.truncated } : {}),
    created: container.mini?.created,
    adapter: { ...info.adapter, heapSizes },
    segments: info.segments,
    heapSizes,
    api,
    apiSource,
    systemInfo: info.systemInfo,
    streams: info.streams.map((s, i) => ({
      index: s.index,
      processId: s.processId,
      threadId: s.threadId,
      versionMajor: s.versionMajor,
      versionMinor: s.versionMinor,
      bytes: s.bytes.length,
      fileOffset: s.pieceFileOffsets[0] ?? 0,
      tokens: decoded.perStream[i].tokens,
      frequency: decoded.perStream[i].frequency,
    })),
    startClock,
    endClock,
    frequency,
    duration: toMs(endClock),
    events,
    creates: decoded.creates,
    userdata: decoded.userdata,
    snapshots,
    tokenCounts: decoded.tokenCounts,
    unknownChunks: info.unknownChunks,
  }
}

/** The format marks descriptor pools as Vulkan-only, descriptor heaps and correlation tokens as D3D12-only. */
function apiFromTokens(creates: RmvResourceCreate[], userdata: RmvUserdata[]): RmvTrace['api'] {
  for (const c of creates) {
    if (c.description.type === 'descriptorPool') return 'vulkan'
    if (c.description.type === 'descriptorHeap') return 'd3d12'
  }
  for (const u of userdata) if (u.type === 'correlation') return 'd3d12'
  return undefined
}

export function clockToMs(trace: RmvTrace, clock: number): number {
  return ((clock - trace.startClock) * 1000) / trace.frequency
}

interface EventCommon {
  /** Milliseconds since the trace's first token. */
  time: number
  clock: number
  stream: number
  offset: number
}

/** One token event as an object, for what a person looks at (dumps, detail panes). */
export type RmvEvent = EventCommon &
  (
    | { kind: 'timestamp'; frequency: number }
    | {
        kind: 'virtualAllocate'
        address: number
        size: number
        owner: RmvOwner
        preferredHeaps: RmvHeapPreference[]
        external: boolean
      }
    | { kind: 'virtualFree'; address: number }
    | ({ kind: 'resourceCreate' } & RmvResourceCreate)
    | { kind: 'resourceBind'; resourceId: number; address: number; size: number; systemMemory: boolean }
    | { kind: 'resourceDestroy'; resourceId: number }
    | { kind: 'resourceUpdate'; resourceId: number; subresourceId: number; resourceType: string; before: number; after: number }
    | {
        kind: 'pageTableUpdate'
        virtualAddress: number
        physicalAddress: number
        pages: number
        pageSize: number
        size: number
        unmap: boolean
        updateType: RmvPageTableUpdateType
        controller: 'os' | 'kmd'
        processId: number
      }
    | ({ kind: 'userdata' } & RmvUserdata)
    | { kind: 'misc'; miscType: RmvMiscType | `${number}` }
    | { kind: 'resourceReference'; residency: 'add' | 'remove'; address: number; queue: number }
    | { kind: 'processEvent'; processId: number; event: 'start' | 'stop' }
    | { kind: 'pageReference'; pageSize: number; compressed: boolean }
    | { kind: 'cpuMap'; address: number; unmap: boolean }
  )

export function eventAt(trace: RmvTrace, i: number): RmvEvent {
  const e = trace.events
  const common: EventCommon = { time: clockToMs(trace, e.clock[i]), clock: e.clock[i], stream: e.stream[i], offset: e.offset[i] }
  const f = e.flags[i]
  switch (e.kind[i]) {
    case TOKEN.timestamp:
      return { ...common, kind: 'timestamp', frequency: e.extra[i] }
    case TOKEN.virtualAllocate: {
      const count = Math.min(4, (f >> 10) & 7)
      const preferredHeaps: RmvHeapPreference[] = []
      for (let k = 0; k < count; k++) preferredHeaps.push(RMV_HEAP_PREFERENCES[(f >> (2 + 2 * k)) & 3])
      return {
        ...common,
        kind: 'virtualAllocate',
        address: e.address[i],
        size: e.size[i],
        owner: RMV_OWNERS[f & 3],
        preferredHeaps,
        external: ((f >> 13) & 1) === 1,
      }
    }
    case TOKEN.virtualFree:
      return { ...common, kind: 'virtualFree', address: e.address[i] }
    case TOKEN.resourceCreate:
      return { ...common, kind: 'resourceCreate', ...trace.creates[e.ref[i]] }
    case TOKEN.resourceBind:
      return { ...common, kind: 'resourceBind', resourceId: e.id[i], address: e.address[i], size: e.size[i], systemMemory: (f & 1) === 1 }
    case TOKEN.resourceDestroy:
      return { ...common, kind: 'resourceDestroy', resourceId: e.id[i] }
    case TOKEN.resourceUpdate:
      return {
        ...common,
        kind: 'resourceUpdate',
        resourceId: e.id[i],
        subresourceId: e.size[i],
        resourceType: RMV_RESOURCE_TYPES[e.extra[i]] ?? `${e.extra[i]}`,
        before: f & 0x7fff,
        after: (f >>> 15) & 0x7fff,
      }
    case TOKEN.pageTableUpdate:
      return {
        ...common,
        kind: 'pageTableUpdate',
        virtualAddress: e.address[i],
        physicalAddress: e.extra[i],
        pages: e.ref[i],
        pageSize: RMV_PAGE_SIZES[f & 7],
        size: e.size[i],
        unmap: ((f >> 3) & 1) === 1,
        updateType: RMV_PAGE_TABLE_UPDATE_TYPES[(f >> 4) & 3],
        controller: ((f >> 6) & 1) === 1 ? 'kmd' : 'os',
        processId: e.id[i],
      }
    case TOKEN.userdata:
      return { ...common, kind: 'userdata', ...trace.userdata[e.ref[i]] }
    case TOKEN.misc:
      return { ...common, kind: 'misc', miscType: RMV_MISC_TYPES[f] ?? `${f}` }
    case TOKEN.resourceReference:
      return { ...common, kind: 'resourceReference', residency: (f & 1) === 1 ? 'remove' : 'add', address: e.address[i], queue: f >> 1 }
    case TOKEN.processEvent:
      return { ...common, kind: 'processEvent', processId: e.id[i], event: f === 1 ? 'stop' : 'start' }
    case TOKEN.pageReference:
      return { ...common, kind: 'pageReference', pageSize: RMV_PAGE_SIZES[f & 7], compressed: ((f >> 3) & 1) === 1 }
    case TOKEN.cpuMap:
    default:
      return { ...common, kind: 'cpuMap', address: e.address[i], unmap: (f & 1) === 1 }
  }
}
