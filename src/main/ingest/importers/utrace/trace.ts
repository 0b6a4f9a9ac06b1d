/**
 * readUtrace: a .utrace file → what HeapScope uses of it. Keeps `$Trace` (the clock, thread names), `Memory.*`
 * (allocations of Video memory, heaps, tags, call stacks), `LLM.*` (tag names), `Diagnostics` modules, and the
 * frame and bookmark events of `Misc`; every other event is stepped over by its size. Each thread's events keep
 * their order, and threads are merged by the events' 24-bit serials. Pure: no Node imports.
 */
import { UtraceFormatError } from './errors'
import type { EventView, UtraceEventType, UtraceField } from './events'
import { UtraceReader, type UtraceStreamSummary } from './reader'

/** Root heaps of the memory trace. */
export const ROOT_SYSTEM = 0
export const ROOT_VIDEO = 1
export const MEMORY_VERSIONS = [1, 2] as const

export interface UtraceMemoryInit {
  version: number
  markerPeriod: number
  minAlignment: number
  sizeShift: number
  pageSize?: number
}

export interface UtraceHeapSpec {
  id: number
  parent: number
  flags: number
  name: string
}

export interface UtraceModule {
  name: string
  base: number
  size: number
}

/** An event whose place in time matters, from any thread, in the merged order. */
export type UtraceTimedEvent = { thread: number; serial: number; offset: number } & (
  | { kind: 'alloc'; address: number; size: number; callstack: number; tag: number; realloc: boolean; sizeLower: number }
  | { kind: 'free'; address: number; callstack: number; realloc: boolean }
  | { kind: 'mark' | 'unmark'; address: number; heap: number }
  | { kind: 'time'; cycle: number }
  | { kind: 'frame'; cycle: number; frameType: number; begin: boolean }
  | { kind: 'bookmark'; cycle: number; point: number }
)

export interface UtraceTrace {
  stream: UtraceStreamSummary
  /** From `$Trace.NewTrace`: the cycle count when the trace started and cycles per second. */
  startCycle: number
  cycleFrequency: number
  pointerSize?: number
  memory?: UtraceMemoryInit
  heapSpecs: Map<number, UtraceHeapSpec>
  /** Memory.TagSpec: tag id → display name and parent. */
  tags: Map<number, { name: string; parent: number }>
  /** LLM.TagsSpec: tag id → name, for tags the memory trace does not name. */
  llmTags: Map<number, string>
  llmTrackers: string[]
  /** Memory.CallstackSpec: id → program counters, innermost first. */
  callstacks: Map<number, number[]>
  modules: UtraceModule[]
  threadNames: Map<number, string>
  bookmarkSpecs: Map<number, string>
  /** Video-memory allocations, frees, heap marks, time and frame events, in the merged order. */
  events: UtraceTimedEvent[]
  /** Allocations and frees of System memory and other roots: not mapped, only counted. */
  otherRoots: { allocs: number; frees: number; bytes: number }
  /** Counts of the kept events by `Logger.Name`, allocations and frees aside. */
  counts: Map<string, number>
  /** Events skipped because their declaration lacks a field HeapScope reads, by `Logger.Name`. */
  unread: Map<string, { field: string; fields: string; count: number }>
}

export interface ReadUtraceOptions {
  /** Bytes handed to the reader at a time (default 1 MiB); tests make it tiny to cross every boundary. */
  chunkSize?: number
}

const KEPT_LOGGERS = new Set(['Memory', 'LLM', '$Trace', 'Diagnostics'])
const KEPT_MISC = new Set(['BeginFrame', 'EndFrame', 'BookmarkSpec', 'Bookmark'])
const ALLOCS = new Set(['Alloc', 'AllocSystem', 'AllocVideo', 'ReallocAlloc', 'ReallocAllocSystem', 'ReallocAllocVideo'])
const FREES = new Set(['Free', 'FreeSystem', 'FreeVideo', 'ReallocFree', 'ReallocFreeSystem', 'ReallocFreeVideo'])

export const DEFAULT_CHUNK_SIZE = 1 << 20

/** A field HeapScope reads is not in the event's declaration. */
class MissingField extends Error {
  constructor(readonly field: string) {
    super(`no field "${field}"`)
  }
}

function kept(type: UtraceEventType): boolean {
  // call stacks are Memory's in UE 5; another logger's CallstackSpec is read the same
  if (type.name === 'CallstackSpec') return true
  if (KEPT_LOGGERS.has(type.logger)) return type.logger !== 'Diagnostics' || type.name.startsWith('Module')
  return type.logger === 'Misc' && KEPT_MISC.has(type.name)
}

/** The fields of an allocation or free event, found once per declaration: these events are most of a trace. */
interface AllocRole {
  alloc: boolean
  realloc: boolean
  /** The root heap the event's name says, or -1 when its RootHeap field does. */
  root: number
  rootHeap?: UtraceField
  address?: UtraceField
  size?: UtraceField
  sizeLower?: UtraceField
  callstack?: UtraceField
}

function allocRole(type: UtraceEventType): AllocRole | undefined {
  if (type.logger !== 'Memory' || !(ALLOCS.has(type.name) || FREES.has(type.name))) return undefined
  const field = (name: string): UtraceField | undefined => {
    const f = type.byName.get(name)
    return f && !f.aux ? f : undefined
  }
  const address = field('Address')
  const alloc = ALLOCS.has(type.name)
  const size = field('Size')
  return {
    alloc,
    realloc: type.name.startsWith('Realloc'),
    root: type.name.endsWith('System') ? ROOT_SYSTEM : type.name.endsWith('Video') ? ROOT_VIDEO : -1,
    rootHeap: field('RootHeap'),
    address,
    size,
    sizeLower: field('AlignmentPow2_SizeLower'),
    callstack: field('CallstackId'),
  }
}

export function readUtrace(bytes: Uint8Array, options: ReadUtraceOptions = {}): UtraceTrace {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE
  if (!(Number.isInteger(chunkSize) && chunkSize >= 1)) throw new RangeError(`chunkSize must be a whole number of bytes, at least 1, got ${chunkSize}`)
  const collector = new Collector()
  const reader = new UtraceReader(collector)
  for (let at = 0; at < bytes.length; at += chunkSize) reader.push(bytes.subarray(at, Math.min(bytes.length, at + chunkSize)))
  const stream = reader.finish()
  return collector.result(stream)
}

/** What the reader shows it, sorted into tables (declarations) and per-thread lists of timed events. */
class Collector {
  startCycle = 0
  cycleFrequency = 0
  pointerSize?: number
  memory?: UtraceMemoryInit
  readonly heapSpecs = new Map<number, UtraceHeapSpec>()
  readonly tags = new Map<number, { name: string; parent: number }>()
  readonly llmTags = new Map<number, string>()
  readonly llmTrackers: string[] = []
  readonly callstacks = new Map<number, number[]>()
  moduleBaseShift = 0
  readonly modules: UtraceModule[] = []
  readonly threadNames = new Map<number, string>()
  readonly bookmarkSpecs = new Map<number, string>()
  readonly perThread = new Map<number, UtraceTimedEvent[]>()
  readonly otherRoots = { allocs: 0, frees: 0, bytes: 0 }
  /**
   * Sizes wait for Memory.Init's SizeShift, which may come after the first allocations (its thread's packets may come
   * later in the file): other roots' sizes are summed as their `Size` field and a count of each low byte.
   */
  private otherSizes = 0
  private readonly otherLowBytes = new Float64Array(256)
  readonly counts = new Map<string, number>()
  /** Tag scopes open on each thread, innermost last; the event after an enter sets the top. */
  private readonly tagStacks = new Map<number, number[]>()
  private readonly scopeOpened = new Set<number>()
  /** Tag of each live Video allocation, for scopes that name an allocation instead of a tag. */
  private readonly tagOfAddress = new Map<number, number>()

  private readonly allocRoles = new Map<number, AllocRole>()

  wants(type: UtraceEventType): boolean {
    const role = allocRole(type)
    if (role) this.allocRoles.set(type.uid, role)
    else this.allocRoles.delete(type.uid)
    return kept(type)
  }

  /** An allocation or a free: System memory only counted, Video memory kept with the thread's tag. */
  private allocation(view: EventView, role: AllocRole): void {
    if (!role.address) throw new MissingField('Address')
    if (role.alloc && !role.size) throw new MissingField('Size')
    const root = role.root >= 0 ? role.root : role.rootHeap ? view.numberOf(role.rootHeap) : ROOT_SYSTEM
    if (role.alloc) {
      const size = view.numberOf(role.size as UtraceField)
      const sizeLower = role.sizeLower ? view.numberOf(role.sizeLower) : -1
      if (root !== ROOT_VIDEO) {
        this.otherRoots.allocs++
        this.otherSizes += size
        if (sizeLower >= 0) this.otherLowBytes[sizeLower & 0xff]++
        return
      }
      const address = view.numberOf(role.address)
      const tag = this.tagOf(view.thread)
      this.tagOfAddress.set(address, tag)
      const callstack = role.callstack ? view.numberOf(role.callstack) : 0
      this.push({ thread: view.thread, serial: view.serial, offset: view.offset, kind: 'alloc', address, size, callstack, tag, realloc: role.realloc, sizeLower })
      return
    }
    if (root !== ROOT_VIDEO) {
      this.otherRoots.frees++
      return
    }
    const address = view.numberOf(role.address)
    this.tagOfAddress.delete(address)
    const callstack = role.callstack ? view.numberOf(role.callstack) : 0
    this.push({ thread: view.thread, serial: view.serial, offset: view.offset, kind: 'free', address, callstack, realloc: role.realloc })
  }

  scope(thread: number, kind: 'enter' | 'leave'): void {
    let stack = this.tagStacks.get(thread)
    if (!stack) this.tagStacks.set(thread, (stack = []))
    if (kind === 'enter') {
      stack.push(stack.length > 0 ? stack[stack.length - 1] : 0)
      this.scopeOpened.add(thread)
    } else {
      stack.pop()
      this.scopeOpened.delete(thread)
    }
  }

  private push(event: UtraceTimedEvent): void {
    let list = this.perThread.get(event.thread)
    if (!list) this.perThread.set(event.thread, (list = []))
    list.push(event)
  }

  private tagOf(thread: number): number {
    const stack = this.tagStacks.get(thread)
    return stack && stack.length > 0 ? stack[stack.length - 1] : 0
  }

  /** Events whose declaration lacks a field HeapScope reads (another engine's layout): skipped and counted. */
  readonly unread = new Map<string, { field: string; fields: string; count: number }>()

  event(view: EventView): void {
    try {
      this.read(view)
    } catch (error) {
      if (!(error instanceof MissingField)) throw error
      const type = view.type
      const entry = this.unread.get(type.fullName)
      if (entry) entry.count++
      else this.unread.set(type.fullName, { field: error.field, fields: type.fields.map((f) => f.name).join(', '), count: 1 })
    }
  }

  private read(view: EventView): void {
    const type = view.type
    const thread = view.thread
    const opened = this.scopeOpened.size > 0 && this.scopeOpened.delete(thread)
    const role = this.allocRoles.get(type.uid)
    if (role) return this.allocation(view, role)
    this.counts.set(type.fullName, (this.counts.get(type.fullName) ?? 0) + 1)
    const common = { thread, serial: view.serial, offset: view.offset }
    const num = (name: string): number => {
      const value = view.number(name)
      if (value === undefined) throw new MissingField(name)
      return value
    }
    if (type.name === 'CallstackSpec') {
      const frames = view.array('Frames')
      const list: number[] = []
      if (frames) {
        const dv = new DataView(frames.buffer, frames.byteOffset, frames.byteLength)
        for (let i = 0; i + 8 <= frames.length; i += 8) list.push(dv.getUint32(i, true) + dv.getUint32(i + 4, true) * 2 ** 32)
      }
      this.callstacks.set(num('CallstackId'), list)
      return
    }
    switch (type.logger) {
      case '$Trace':
        if (type.name === 'NewTrace') {
          this.startCycle = num('StartCycle')
          this.cycleFrequency = num('CycleFrequency')
          this.pointerSize = view.number('PointerSize')
        } else if (type.name === 'ThreadInfo') {
          this.threadNames.set(num('ThreadId'), view.string('Name') ?? '')
        }
        return
      case 'Misc':
        if (type.name === 'BookmarkSpec') this.bookmarkSpecs.set(num('BookmarkPoint'), view.string('FormatString') ?? '')
        else if (type.name === 'Bookmark') this.push({ ...common, kind: 'bookmark', cycle: num('Cycle'), point: num('BookmarkPoint') })
        else this.push({ ...common, kind: 'frame', cycle: num('Cycle'), frameType: view.number('FrameType') ?? 0, begin: type.name === 'BeginFrame' })
        return
      case 'Diagnostics':
        if (type.name === 'ModuleInit') this.moduleBaseShift = view.number('ModuleBaseShift') ?? 0
        else if (type.name === 'ModuleLoad') {
          const raw = num('Base')
          this.modules.push({ name: view.string('Name') ?? '', base: this.moduleBaseShift ? (raw >>> 0) * 2 ** this.moduleBaseShift : raw, size: num('Size') })
        }
        return
      case 'LLM':
        if (type.name === 'TagsSpec') this.llmTags.set(num('TagId'), view.string('Name') ?? '')
        else if (type.name === 'TrackerSpec') this.llmTrackers.push(view.string('Name') ?? '')
        return
    }
    // Memory
    const name = type.name
    switch (name) {
      case 'Init': {
        const version = num('Version')
        if (!(MEMORY_VERSIONS as readonly number[]).includes(version)) {
          throw new UtraceFormatError(view.offset, 'Memory.Init version 1 (UE 5.0, 5.1) or 2 (UE 5.2 on)', `version ${version}`)
        }
        const sizeShift = view.number('SizeShift') ?? 0
        if (sizeShift > 31) throw new UtraceFormatError(view.offset, 'a Memory.Init SizeShift from 0 to 31', `${sizeShift}`)
        this.memory = { version, markerPeriod: view.number('MarkerPeriod') ?? 0, minAlignment: view.number('MinAlignment') ?? 0, sizeShift }
        const pageSize = view.number('PageSize')
        if (pageSize !== undefined) this.memory.pageSize = pageSize
        return
      }
      case 'Marker':
        this.push({ ...common, kind: 'time', cycle: num('Cycle') })
        return
      case 'HeapSpec': {
        const id = num('Id')
        this.heapSpecs.set(id, { id, parent: view.number('ParentId') ?? 0, flags: view.number('Flags') ?? 0, name: view.string('Name') ?? '' })
        return
      }
      case 'HeapMarkAlloc':
      case 'HeapUnmarkAlloc':
        this.push({ ...common, kind: name === 'HeapMarkAlloc' ? 'mark' : 'unmark', address: num('Address'), heap: num('Heap') })
        return
      case 'TagSpec':
        this.tags.set(num('Tag'), { name: view.string('Display') ?? '', parent: view.number('Parent') ?? -1 })
        return
      case 'MemoryScope':
        if (opened) this.setTag(thread, num('Tag'))
        return
      case 'MemoryScopePtr':
        if (opened) this.setTag(thread, this.tagOfAddress.get(num('Ptr')) ?? this.tagOf(thread))
        return
    }
  }

  private setTag(thread: number, tag: number): void {
    const stack = this.tagStacks.get(thread)
    if (stack && stack.length > 0) stack[stack.length - 1] = tag
  }

  result(stream: UtraceStreamSummary): UtraceTrace {
    const events = mergeBySerial(this.perThread)
    // (Size << SizeShift) | (AlignmentPow2_SizeLower & (2^SizeShift - 1)): the low bits ride with the alignment
    const shift = this.memory?.sizeShift ?? 0
    const scale = 2 ** shift
    const mask = scale - 1
    for (const e of events) if (e.kind === 'alloc' && e.sizeLower >= 0) e.size = e.size * scale + (e.sizeLower & mask)
    this.otherRoots.bytes = this.otherSizes * scale
    this.otherLowBytes.forEach((count, low) => (this.otherRoots.bytes += count * (low & mask)))
    return {
      stream,
      startCycle: this.startCycle,
      cycleFrequency: this.cycleFrequency,
      pointerSize: this.pointerSize,
      memory: this.memory,
      heapSpecs: this.heapSpecs,
      tags: this.tags,
      llmTags: this.llmTags,
      llmTrackers: this.llmTrackers,
      callstacks: this.callstacks,
      modules: this.modules,
      threadNames: this.threadNames,
      bookmarkSpecs: this.bookmarkSpecs,
      events,
      otherRoots: this.otherRoots,
      counts: this.counts,
      unread: this.unread,
    }
  }
}

const SERIAL_MASK = 0xffffff

/**
 * Threads' events in one order: each thread's in its own order, and across threads by serial, the event whose serial
 * comes next (counting on from the last one taken, so serials may wrap past 2^24). An event without a serial goes
 * right after the one before it on its thread. Serials of the events stepped over are missing: the next event is
 * the one closest after the last serial taken.
 */
export function mergeBySerial<E extends { serial: number }>(perThread: Map<number, E[]>): E[] {
  const lists = [...perThread.entries()].sort((a, b) => a[0] - b[0]).map(([, list]) => list)
  const heads = lists.map(() => 0)
  const out: E[] = []
  let next = -1
  const drainUnserialed = (t: number): void => {
    const list = lists[t]
    while (heads[t] < list.length && list[heads[t]].serial < 0) out.push(list[heads[t]++])
  }
  for (let t = 0; t < lists.length; t++) drainUnserialed(t)
  // the first serial: the head that every other head follows within half the range (serials wrap past 2^24)
  let first = -1
  let spread = Infinity
  for (let t = 0; t < lists.length; t++) {
    if (heads[t] >= lists[t].length) continue
    const s = lists[t][heads[t]].serial
    let widest = 0
    for (let o = 0; o < lists.length; o++) {
      if (heads[o] < lists[o].length) widest = Math.max(widest, (lists[o][heads[o]].serial - s) & SERIAL_MASK)
    }
    if (widest < spread) {
      spread = widest
      first = s
    }
  }
  if (first >= 0) next = first
  for (;;) {
    let best = -1
    let bestDistance = Infinity
    for (let t = 0; t < lists.length; t++) {
      if (heads[t] >= lists[t].length) continue
      const serial = lists[t][heads[t]].serial
      const distance = (serial - next) & SERIAL_MASK
      if (distance < bestDistance) {
        bestDistance = distance
        best = t
        if (distance === 0) break
      }
    }
    if (best < 0) break
    const event = lists[best][heads[best]++]
    out.push(event)
    next = (event.serial + 1) & SERIAL_MASK
    drainUnserialed(best)
  }
  return out
}
