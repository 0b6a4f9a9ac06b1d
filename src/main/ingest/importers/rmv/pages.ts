/**
 * Mapped bytes per physical heap, kept the way the driver's page table keeps them: each 4 KiB virtual page is
 * unmapped or mapped into one heap, so a remap or unmap subtracts from the heap the page was in before.
 */
import type { RmvSegment } from './types'

const PAGE = 4096
const LEAF_BITS = 14
const LEAF_PAGES = 1 << LEAF_BITS
const HEAP_CODES = { local: 1, invisible: 2, system: 3 } as const

export class PageTable {
  /** Mapped bytes by heap code - 1: local, invisible, system. */
  readonly mapped = [0, 0, 0]
  /** Pages whose physical address lies in no segment; they are not counted. */
  unknownPages = 0
  private readonly leaves = new Map<number, Uint8Array>()
  private readonly segments: { start: number; end: number; code: number }[]

  constructor(segments: RmvSegment[]) {
    this.segments = segments
      .filter((s) => s.heap !== 'system')
      .map((s) => ({ start: s.physicalAddress, end: s.physicalAddress + s.size, code: HEAP_CODES[s.heap] }))
  }

  /**
   * Heap code of a physical address, and how many pages from it stay in that heap (or, outside every segment,
   * until the next segment starts). Physical address 0 means system memory, for the whole run.
   */
  private runAt(physical: number): { code: number; pages: number } {
    if (physical === 0) return { code: HEAP_CODES.system, pages: Infinity }
    let nextStart = Infinity
    for (const s of this.segments) {
      if (physical >= s.start && physical < s.end) return { code: s.code, pages: Math.ceil((s.end - physical) / PAGE) }
      if (s.start > physical) nextStart = Math.min(nextStart, s.start)
    }
    return { code: 0, pages: Math.ceil((nextStart - physical) / PAGE) }
  }

  update(virtualAddress: number, physicalAddress: number, bytes: number, unmap: boolean): void {
    let page = Math.floor(virtualAddress / PAGE)
    const last = page + Math.ceil(bytes / PAGE)
    let physical = physicalAddress
    const mapped = this.mapped
    while (page < last) {
      const key = Math.floor(page / LEAF_PAGES)
      const leafEnd = (key + 1) * LEAF_PAGES
      let leaf = this.leaves.get(key)
      if (!leaf) {
        if (unmap) {
          // Nothing was ever mapped in this leaf.
          page = Math.min(leafEnd, last)
          continue
        }
        leaf = new Uint8Array(LEAF_PAGES)
        this.leaves.set(key, leaf)
      }
      let stop = Math.min(last, leafEnd)
      let code = 0
      if (!unmap) {
        const run = this.runAt(physical)
        code = run.code
        stop = Math.min(stop, page + run.pages)
      }
      const from = page - key * LEAF_PAGES
      const to = stop - key * LEAF_PAGES
      // Take the pages out of the heaps they were mapped in, then map the run into one heap.
      let local = 0
      let invisible = 0
      let system = 0
      for (let j = from; j < to; j++) {
        const old = leaf[j]
        if (old === 1) local++
        else if (old === 2) invisible++
        else if (old === 3) system++
      }
      mapped[0] -= local * PAGE
      mapped[1] -= invisible * PAGE
      mapped[2] -= system * PAGE
      leaf.fill(code, from, to)
      const count = stop - page
      if (code !== 0) mapped[code - 1] += count * PAGE
      else if (!unmap) this.unknownPages += count
      // Pages mapped at physical 0 are system pages: the address does not advance.
      if (physical !== 0) physical += count * PAGE
      page = stop
    }
  }
}
