/**
 * The chunks around the token stream: adapter, memory segments (the heaps), system info, snapshots, API, and
 * the stream headers. RDF and MINI name and lay these out differently; both end up in the same shapes.
 */
import { ByteView, decodeUtf8 } from './bytes'
import type { RmvChunk, RmvContainer } from './container'
import { RmvFormatError } from './errors'
import { RMV_HEAPS, type RmvAdapter, type RmvHeap, type RmvSegment } from './types'

export const MEMORY_TYPES = [
  'Unknown',
  'DDR2',
  'DDR3',
  'DDR4',
  'GDDR5',
  'GDDR6',
  'HBM',
  'HBM2',
  'HBM3',
  'LPDDR4',
  'LPDDR5',
  'DDR5',
] as const

/** One stream of tokens: the bytes of all its chunks, in order, and where each piece sits in the file. */
export interface StreamSource {
  index: number
  processId: number
  threadId: number
  versionMajor: number
  versionMinor: number
  bytes: Uint8Array
  /** File offset of each piece's first byte, and the stream offset where that piece starts. */
  pieceFileOffsets: number[]
  pieceStreamOffsets: number[]
}

export interface SnapshotPoint {
  name: string
  clock: number
}

export interface TraceInfo {
  adapter: RmvAdapter
  segments: RmvSegment[]
  systemInfo?: unknown
  api?: 'vulkan' | 'd3d12'
  snapshots: SnapshotPoint[]
  /** Ticks per second stated outside the token stream (MINI system info, RDF DDEvent), if any. */
  frequency?: number
  streams: StreamSource[]
  unknownChunks: string[]
}

const KNOWN_RDF = new Set([
  'AdapterInfo',
  'GpuMemSegment',
  'SystemInfo',
  'RmtData',
  'RmvSnapshotData',
  'RmvSnapshotIndex',
  'ApiInfo',
  'DDEvent',
  'DriverOverrides',
])
const KNOWN_MINI = new Set(['AsicInfo', 'ApiInfo', 'SystemInfo', 'RmtData', 'SegmentInfo', 'ProcessStart', 'SnapshotInfo', 'AdapterInfo'])

export function readTraceInfo(container: RmvContainer): TraceInfo {
  return container.kind === 'rdf' ? readRdfInfo(container.chunks) : readMiniInfo(container.chunks)
}

const view = (chunk: RmvChunk): ByteView => new ByteView(chunk.data, chunk.dataOffset)

/** The adapter chunk (same 172-byte layout in both containers). */
function readAdapter(chunk: RmvChunk): RmvAdapter {
  const v = view(chunk)
  v.need(0, 172, 'the adapter info (172 bytes)')
  const u = (i: number): number => v.u32(128 + 4 * i, 'an adapter field')
  return {
    name: v.cstring(0, 128, 'the adapter name'),
    familyId: u(0),
    revisionId: u(1),
    deviceId: u(2),
    engineClockMhz: { min: u(3), max: u(4) },
    memoryType: MEMORY_TYPES[u(5)] ?? `type ${u(5)}`,
    memoryOpsPerClock: u(6),
    memoryBusWidth: u(7),
    memoryBandwidth: u(8),
    memoryClockMhz: { min: u(9), max: u(10) },
  }
}

function heapOf(code: number, at: number): RmvHeap {
  const heap = RMV_HEAPS[code]
  if (heap === undefined) throw new RmvFormatError(at, 'a heap type 0 (local), 1 (invisible) or 2 (system)', `${code}`)
  return heap
}

function readRdfInfo(chunks: RmvChunk[]): TraceInfo {
  let adapter: RmvAdapter | undefined
  let segments: RmvSegment[] = []
  let systemInfo: unknown
  let api: TraceInfo['api']
  let frequency: number | undefined
  const snapshotChunks: RmvChunk[] = []
  let snapshotIndex: RmvChunk | undefined
  const unknownChunks: string[] = []
  const streamChunks: RmvChunk[] = []
  for (const chunk of chunks) {
    switch (chunk.id) {
      case 'AdapterInfo':
        adapter = readAdapter(chunk)
        break
      case 'GpuMemSegment':
        segments = readRdfSegments(chunk)
        break
      case 'SystemInfo':
        systemInfo = readJson(chunk)
        break
      case 'RmtData':
        streamChunks.push(chunk)
        break
      case 'RmvSnapshotData':
        snapshotChunks.push(chunk)
        break
      case 'RmvSnapshotIndex':
        snapshotIndex = chunk
        break
      case 'ApiInfo':
        api = readRdfApi(chunk)
        break
      case 'DDEvent':
        if (chunk.index === 0 && chunk.header.length >= 32) {
          frequency = new ByteView(chunk.header, chunk.headerOffset).u64(24, 'the DDEvent timestamp frequency') || undefined
        }
        break
      default:
        if (!KNOWN_RDF.has(chunk.id)) unknownChunks.push(chunk.id)
    }
  }
  const fromJson = systemInfoGpu(systemInfo)
  if (!adapter) adapter = fromJson.adapter ?? { name: '' }
  if (segments.length === 0) segments = fromJson.segments
  return {
    adapter,
    segments,
    systemInfo,
    api,
    frequency,
    snapshots: readRdfSnapshots(snapshotChunks, snapshotIndex),
    streams: readRdfStreams(streamChunks),
    unknownChunks,
  }
}

function readRdfSegments(chunk: RmvChunk): RmvSegment[] {
  const v = view(chunk)
  const out: RmvSegment[] = []
  for (let at = 0; at + 24 <= v.length; at += 24) {
    const type = v.i32(at, 'a segment heap type')
    // The writer may fill the array's tail with unused entries (heap type "none" or unknown).
    if (type < 0 || type > 2) continue
    out.push({ heap: heapOf(type, v.base + at), physicalAddress: v.u64(at + 8, 'a segment base'), size: v.u64(at + 16, 'a segment size') })
  }
  return out
}

function readJson(chunk: RmvChunk): unknown {
  const end = chunk.data.indexOf(0)
  const text = decodeUtf8(end < 0 ? chunk.data : chunk.data.subarray(0, end))
  try {
    return JSON.parse(text) as unknown
  } catch (error) {
    throw new RmvFormatError(chunk.dataOffset, `JSON in chunk "${chunk.id}"`, error instanceof Error ? error.message : 'text')
  }
}

/** PAL's TraceApiType, as the RDF "ApiInfo" chunk specification lists it. */
function readRdfApi(chunk: RmvChunk): TraceInfo['api'] {
  const type = view(chunk).u32(0, 'the API type')
  return type === 2 ? 'd3d12' : type === 3 ? 'vulkan' : undefined
}

const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined)
const obj = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined

/** Adapter and heaps from the system-info JSON's first GPU, for traces without adapter or segment chunks. */
function systemInfoGpu(systemInfo: unknown): { adapter?: RmvAdapter; segments: RmvSegment[] } {
  const gpus = obj(systemInfo)?.gpus
  const gpu = Array.isArray(gpus) ? obj(gpus[0]) : undefined
  if (!gpu) return { segments: [] }
  const asic = obj(gpu.asic)
  const memory = obj(gpu.memory)
  const ids = obj(asic?.ids)
  const range = (value: unknown): { min: number; max: number } | undefined => {
    const r = obj(value)
    const min = num(r?.min)
    const max = num(r?.max)
    return min !== undefined && max !== undefined ? { min: min / 1e6, max: max / 1e6 } : undefined
  }
  const bandwidth = num(memory?.bandwidthBytesPerSec)
  const adapter: RmvAdapter = {
    name: typeof gpu.name === 'string' ? gpu.name : '',
    familyId: num(ids?.family),
    revisionId: num(ids?.revision),
    deviceId: num(ids?.device),
    engineClockMhz: range(asic?.engineClockHz),
    memoryClockMhz: range(memory?.memClockHz),
    memoryType: typeof memory?.type === 'string' ? memory.type : undefined,
    memoryOpsPerClock: num(memory?.memOpsPerClock),
    memoryBusWidth: num(memory?.busBitWidth),
    memoryBandwidth: bandwidth === undefined ? undefined : bandwidth / 1e6,
  }
  const segments: RmvSegment[] = []
  const heaps = obj(memory?.heaps)
  for (const heap of ['local', 'invisible'] as const) {
    const h = obj(heaps?.[heap])
    const size = num(h?.size)
    if (size !== undefined) segments.push({ heap, physicalAddress: num(h?.physicalAddress) ?? 0, size })
  }
  return { adapter, segments }
}

const EMPTY_SNAPSHOT_INDEX = 0xffff

function readRdfSnapshots(chunks: RmvChunk[], indexChunk: RmvChunk | undefined): SnapshotPoint[] {
  let wanted = chunks.map((_, i) => i)
  if (indexChunk) {
    const v = view(indexChunk)
    const count = new ByteView(indexChunk.header, indexChunk.headerOffset).u16(0, 'the snapshot index count')
    wanted = []
    for (let i = 0; i < count; i++) {
      const index = v.u16(2 * i, 'a snapshot index')
      if (index !== EMPTY_SNAPSHOT_INDEX && index < chunks.length) wanted.push(index)
    }
  }
  const out: SnapshotPoint[] = []
  for (const i of wanted) {
    const v = view(chunks[i])
    const nameLength = v.u32(136, 'the snapshot name length')
    out.push({ name: v.cstring(0, Math.min(128, nameLength), 'the snapshot name'), clock: v.u64(128, 'the snapshot point') })
  }
  return out
}

const RDF_STREAM_HEADER_SIZE = 24
const MAX_STREAMS = 256

function readRdfStreams(chunks: RmvChunk[]): StreamSource[] {
  const byIndex = new Map<number, { head: ByteView; pieces: RmvChunk[] }>()
  for (const chunk of chunks) {
    const head = new ByteView(chunk.header, chunk.headerOffset)
    head.need(0, RDF_STREAM_HEADER_SIZE, 'an RmtData stream header')
    const index = head.u32(16, 'the stream index')
    if (index >= MAX_STREAMS) throw new RmvFormatError(head.base + 16, `a stream index below ${MAX_STREAMS}`, `${index}`)
    if (head.u64(8, 'the stream data size') === 0) continue
    const entry = byIndex.get(index)
    if (entry) entry.pieces.push(chunk)
    else byIndex.set(index, { head, pieces: [chunk] })
  }
  const streams: StreamSource[] = []
  for (const [index, { head, pieces }] of [...byIndex].sort((a, b) => a[0] - b[0])) {
    streams.push(
      joinPieces(
        index,
        head.u32(0, 'the stream process id'),
        head.u32(4, 'the stream thread id'),
        head.u16(20, 'the stream major version'),
        head.u16(22, 'the stream minor version'),
        pieces.map((p) => ({ data: p.data, fileOffset: p.dataOffset })),
      ),
    )
  }
  return streams
}

/** A stream that spans several chunks is read as one run of bytes: tokens may cross chunk boundaries. */
function joinPieces(
  index: number,
  processId: number,
  threadId: number,
  versionMajor: number,
  versionMinor: number,
  pieces: { data: Uint8Array; fileOffset: number }[],
): StreamSource {
  const pieceFileOffsets: number[] = []
  const pieceStreamOffsets: number[] = []
  let total = 0
  for (const piece of pieces) {
    pieceFileOffsets.push(piece.fileOffset)
    pieceStreamOffsets.push(total)
    total += piece.data.length
  }
  let bytes: Uint8Array
  if (pieces.length === 1) {
    bytes = pieces[0].data
  } else {
    bytes = new Uint8Array(total)
    for (let i = 0; i < pieces.length; i++) bytes.set(pieces[i].data, pieceStreamOffsets[i])
  }
  return { index, processId, threadId, versionMajor, versionMinor, bytes, pieceFileOffsets, pieceStreamOffsets }
}

function readMiniInfo(chunks: RmvChunk[]): TraceInfo {
  let adapter: RmvAdapter = { name: '' }
  const segments: RmvSegment[] = []
  let systemInfo: unknown
  let api: TraceInfo['api']
  let frequency: number | undefined
  const snapshots: SnapshotPoint[] = []
  const streams: StreamSource[] = []
  const unknownChunks: string[] = []
  for (const chunk of chunks) {
    const v = view(chunk)
    switch (chunk.id) {
      case 'AdapterInfo':
        adapter = readAdapter(chunk)
        break
      case 'SegmentInfo':
        segments.push({
          physicalAddress: v.u64(0, 'the segment base'),
          size: v.u64(8, 'the segment size'),
          heap: heapOf(v.i32(16, 'the segment heap type'), v.base + 16),
          memoryIndex: v.i32(20, 'the segment memory index'),
        })
        break
      case 'SystemInfo': {
        v.need(0, 96, 'the system info (96 bytes)')
        frequency = v.u64(72, 'the timestamp frequency') || undefined
        systemInfo = {
          vendorId: v.cstring(0, 16, 'the CPU vendor'),
          processorBrand: v.cstring(16, 48, 'the CPU brand'),
          timestampFrequency: frequency,
          clockSpeedMhz: v.u32(80, 'the CPU clock'),
          logicalCores: v.i32(84, 'the logical cores'),
          physicalCores: v.i32(88, 'the physical cores'),
          systemRamMb: v.i32(92, 'the system RAM'),
        }
        break
      }
      case 'ApiInfo': {
        // RmtApiType: 0 DirectX 12, 1 Vulkan, 2 generic, 3 OpenCL.
        const type = v.u32(0, 'the API type')
        api = type === 0 ? 'd3d12' : type === 1 ? 'vulkan' : undefined
        break
      }
      case 'RmtData': {
        const processId = v.u64(0, 'the stream process id')
        const threadId = v.u64(8, 'the stream thread id')
        if (chunk.data.length > 16) {
          streams.push(
            joinPieces(streams.length, processId, threadId, chunk.version, chunk.versionMinor, [
              { data: chunk.data.subarray(16), fileOffset: chunk.dataOffset + 16 },
            ]),
          )
        }
        break
      }
      case 'SnapshotInfo': {
        const clock = v.u64(0, 'the snapshot time')
        const nameLength = v.i32(8, 'the snapshot name length')
        // A zero-length name marks a deleted snapshot.
        if (nameLength > 0) snapshots.push({ name: v.cstring(16, Math.min(nameLength, v.length - 16), 'the snapshot name'), clock })
        break
      }
      default:
        if (!KNOWN_MINI.has(chunk.id)) unknownChunks.push(chunk.id)
    }
  }
  if (streams.length > MAX_STREAMS) throw new RmvFormatError(0, `at most ${MAX_STREAMS} RmtData chunks`, `${streams.length}`)
  return { adapter, segments, systemInfo, api, frequency, snapshots, streams, unknownChunks }
}
