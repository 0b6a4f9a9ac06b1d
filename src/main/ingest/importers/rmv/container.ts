/**
 * The two containers an .rmv file comes in: RDF (magic `AMD_RDF `, a chunk index at the end, optionally
 * zstd-compressed chunk data) and the older chunked RMT file (magic `MINI`, chunks one after another).
 * Both are read into the same list of chunks; what a chunk means is read elsewhere (info.ts, tokens.ts).
 */
import { ByteView } from './bytes'
import { RmvFormatError, RmvTruncatedError } from './errors'

export type RmvContainerKind = 'rdf' | 'mini'

/** Decodes one compressed chunk; `method` is the RDF compression (1 = zstd). Injected so the reader stays pure. */
export type RmvDecompress = (data: Uint8Array, uncompressedSize: number, method: 'zstd') => Uint8Array

export interface RmvChunk {
  /** RDF chunk identifier, or the name of the chunk type of a MINI file (`RmtData`, `AdapterInfo`, …). */
  id: string
  /** Position among the chunks with the same id. */
  index: number
  version: number
  /** MINI chunks carry a minor version too; RDF chunks have one version number. */
  versionMinor: number
  /** RDF chunk header (never compressed); empty for MINI chunks. */
  header: Uint8Array
  headerOffset: number
  /** Chunk payload, decompressed. For MINI chunks, the bytes after the 16-byte chunk header. */
  data: Uint8Array
  /** File offset of `data` (of the compressed bytes when the chunk is compressed). */
  dataOffset: number
  compressed: boolean
}

export interface RmvMiniHeader {
  versionMajor: number
  versionMinor: number
  flags: number
  /** Creation time as the file states it (local time of the capturing machine), ISO-like. */
  created: string
}

export interface RmvContainer {
  kind: RmvContainerKind
  /** RDF file version (3), or the MINI file's major version. */
  version: number
  chunks: RmvChunk[]
  mini?: RmvMiniHeader
  /** The file ends inside a chunk: where, and which; the chunks before it are read, that one is not. */
  truncated?: { fileLength: number; chunk: string; chunkOffset: number }
}

const RDF_MAGIC = 'AMD_RDF '
const RDF_LEGACY_MAGIC = 'RTA_DATA'
const RDF_VERSION = 3
const RDF_HEADER_SIZE = 32
const RDF_INDEX_ENTRY_SIZE = 64
const MINI_MAGIC = 0x494e494d
const MINI_HEADER_SIZE = 56
const MINI_CHUNK_HEADER_SIZE = 16
/** Chunk types of the MINI format, by their numeric type. */
export const MINI_CHUNK_TYPES = [
  'AsicInfo',
  'ApiInfo',
  'SystemInfo',
  'RmtData',
  'SegmentInfo',
  'ProcessStart',
  'SnapshotInfo',
  'AdapterInfo',
] as const

export function detectContainer(bytes: Uint8Array): RmvContainerKind | null {
  if (bytes.length >= 8) {
    const magic = String.fromCharCode(...bytes.subarray(0, 8))
    if (magic === RDF_MAGIC || magic === RDF_LEGACY_MAGIC) return 'rdf'
  }
  if (bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, true) === MINI_MAGIC) {
    return 'mini'
  }
  return null
}

export function readContainer(bytes: Uint8Array, decompress?: RmvDecompress): RmvContainer {
  const kind = detectContainer(bytes)
  if (kind === 'rdf') return readRdf(bytes, decompress)
  if (kind === 'mini') return readMini(bytes)
  const found = Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join(' ')
  throw new RmvFormatError(0, `the magic "AMD_RDF " (RDF) or "MINI" (RMT chunk file)`, found ? `bytes ${found}` : 'an empty file')
}

function readRdf(bytes: Uint8Array, decompress?: RmvDecompress): RmvContainer {
  const file = new ByteView(bytes)
  file.need(0, RDF_HEADER_SIZE, 'the RDF file header')
  const version = file.u32(8, 'the RDF version')
  if (version !== RDF_VERSION) throw new RmvFormatError(8, `RDF version ${RDF_VERSION}`, `version ${version}`)
  const indexOffset = file.i64(16, 'the RDF chunk index offset')
  const indexSize = file.i64(24, 'the RDF chunk index size')
  if (indexOffset >= RDF_HEADER_SIZE && indexSize >= 0 && indexOffset + indexSize > bytes.length) {
    // the writer puts the index last, when the capture ends: a trace cut short has lost it, and with it every chunk
    throw new RmvTruncatedError(
      16,
      bytes.length,
      `its chunk index (bytes ${indexOffset}–${indexOffset + indexSize}) is written last, when the capture ends, and is lost: without it no chunk can be located, so nothing of this trace can be read`,
    )
  }
  if (indexOffset < RDF_HEADER_SIZE || indexSize < 0) {
    throw new RmvFormatError(16, `a chunk index inside the file (${bytes.length} bytes)`, `offset ${indexOffset}, size ${indexSize}`)
  }
  if (indexSize % RDF_INDEX_ENTRY_SIZE !== 0) {
    throw new RmvFormatError(24, `a chunk index size that is a multiple of ${RDF_INDEX_ENTRY_SIZE}`, `${indexSize}`)
  }
  const chunks: RmvChunk[] = []
  const seen = new Map<string, number>()
  for (let at = indexOffset; at < indexOffset + indexSize; at += RDF_INDEX_ENTRY_SIZE) {
    const id = file.cstring(at, 16, 'a chunk identifier')
    const compression = file.u8(at + 16, 'the chunk compression')
    const chunkVersion = file.u32(at + 20, 'the chunk version')
    const headerOffset = file.i64(at + 24, 'the chunk header offset')
    const headerSize = file.i64(at + 32, 'the chunk header size')
    const dataOffset = file.i64(at + 40, 'the chunk data offset')
    const dataSize = file.i64(at + 48, 'the chunk data size')
    const uncompressedSize = file.i64(at + 56, 'the uncompressed chunk size')
    const what = `chunk "${id}" (index entry at ${at})`
    if (headerOffset < 0 || headerSize < 0 || headerOffset + headerSize > bytes.length) {
      throw new RmvFormatError(at + 24, `the header of ${what} inside the file`, `offset ${headerOffset}, size ${headerSize}`)
    }
    if (dataOffset < 0 || dataSize < 0 || dataOffset + dataSize > bytes.length) {
      throw new RmvFormatError(at + 40, `the data of ${what} inside the file`, `offset ${dataOffset}, size ${dataSize}`)
    }
    let data = bytes.subarray(dataOffset, dataOffset + dataSize)
    if (compression === 1) {
      data = inflate(data, uncompressedSize, dataOffset, what, decompress)
    } else if (compression !== 0) {
      throw new RmvFormatError(at + 16, `compression 0 (none) or 1 (zstd) for ${what}`, `${compression}`)
    }
    const index = seen.get(id) ?? 0
    seen.set(id, index + 1)
    chunks.push({
      id,
      index,
      version: chunkVersion,
      versionMinor: 0,
      header: bytes.subarray(headerOffset, headerOffset + headerSize),
      headerOffset,
      data,
      dataOffset,
      compressed: compression === 1,
    })
  }
  return { kind: 'rdf', version, chunks }
}

/** Largest decompressed chunk accepted: a corrupt size must not ask for an absurd allocation. */
const MAX_UNCOMPRESSED = 2 ** 31

function inflate(
  data: Uint8Array,
  uncompressedSize: number,
  at: number,
  what: string,
  decompress: RmvDecompress | undefined,
): Uint8Array {
  if (!decompress) {
    throw new RmvFormatError(at, `uncompressed data for ${what}: it is zstd-compressed and no zstd decoder was given`)
  }
  if (!(uncompressedSize >= 0 && uncompressedSize <= MAX_UNCOMPRESSED)) {
    throw new RmvFormatError(at, `an uncompressed size of 0 to ${MAX_UNCOMPRESSED} bytes for ${what}`, `${uncompressedSize}`)
  }
  let out: Uint8Array
  try {
    out = decompress(data, uncompressedSize, 'zstd')
  } catch (error) {
    throw new RmvFormatError(at, `zstd data for ${what}`, error instanceof Error ? error.message : String(error))
  }
  if (out.length !== uncompressedSize) {
    throw new RmvFormatError(at, `${uncompressedSize} bytes after decompressing ${what}`, `${out.length} bytes`)
  }
  return out
}

function readMini(bytes: Uint8Array): RmvContainer {
  const file = new ByteView(bytes)
  file.need(0, MINI_HEADER_SIZE, 'the RMT file header')
  const versionMajor = file.u32(4, 'the file major version')
  const versionMinor = file.u32(8, 'the file minor version')
  const flags = file.u32(12, 'the file flags')
  const firstChunk = file.i32(16, 'the offset of the first chunk')
  const field = (i: number): number => file.i32(20 + 4 * i, 'the creation time')
  const [second, minute, hour, day, month, year] = [0, 1, 2, 3, 4, 5].map(field)
  // struct tm: month is 0-based, year counts from 1900.
  const pad = (n: number): string => String(n).padStart(2, '0')
  const created = `${year + 1900}-${pad(month + 1)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`
  if (firstChunk < MINI_HEADER_SIZE || firstChunk > bytes.length) {
    throw new RmvFormatError(16, `a first chunk offset from ${MINI_HEADER_SIZE} to ${bytes.length}`, `${firstChunk}`)
  }
  const chunks: RmvChunk[] = []
  const seen = new Map<string, number>()
  let at = firstChunk
  while (at < bytes.length) {
    file.need(at, MINI_CHUNK_HEADER_SIZE, 'a chunk header')
    const type = file.u8(at, 'the chunk type')
    const versionMinorOfChunk = file.i16(at + 4, 'the chunk minor version')
    const versionMajorOfChunk = file.i16(at + 6, 'the chunk major version')
    const size = file.i32(at + 8, 'the chunk size')
    const id = MINI_CHUNK_TYPES[type] ?? `Chunk${type}`
    if (size >= MINI_CHUNK_HEADER_SIZE && at + size > bytes.length && chunks.length > 0) {
      // cut short inside this chunk: what came before it is whole
      return { kind: 'mini', version: versionMajor, chunks, mini: { versionMajor, versionMinor, flags, created }, truncated: { fileLength: bytes.length, chunk: id, chunkOffset: at } }
    }
    if (size < MINI_CHUNK_HEADER_SIZE || at + size > bytes.length) {
      throw new RmvFormatError(at + 8, `a chunk size from ${MINI_CHUNK_HEADER_SIZE} to ${bytes.length - at} bytes`, `${size}`)
    }
    const index = seen.get(id) ?? 0
    seen.set(id, index + 1)
    chunks.push({
      id,
      index,
      version: versionMajorOfChunk,
      versionMinor: versionMinorOfChunk,
      header: bytes.subarray(at, at),
      headerOffset: at,
      data: bytes.subarray(at + MINI_CHUNK_HEADER_SIZE, at + size),
      dataOffset: at + MINI_CHUNK_HEADER_SIZE,
      compressed: false,
    })
    at += size
  }
  return { kind: 'mini', version: versionMajor, chunks, mini: { versionMajor, versionMinor, flags, created } }
}
