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

  /** Physical address 0 means system memory; otherwise the local or invisible segment that holds the address. */
  private codeOf(physical: number): number {
    if (physical === 0) return HEAP_CODES.system
    for (const s of this.segments) if (physical >= s.start && physical < s.end) return s.code
    return 0
  }

  update(virtualAddress: number, physicalAddress: number, bytes: number, unmap: boolean): void {
    const first = Math.floor(virtualAddress / PAGE)
    const count = Math.ceil(bytes / PAGE)
    let page = first
    const last = first + count
    let physical = physicalAddress
    while (page < last) {
      const key = Math.floor(page / LEAF_PAGES)
      let leaf = this.leaves.get(key)
      if (!leaf) {
        if (unmap) {
          // Nothing mapped in this leaf: skip to the next one.
          const next = (key + 1) * LEAF_PAGES
          if (physical !== 0) physical += (Math.min(next, last) - page) * PAGE
          page = Math.min(next, last)
          continue
        }
        leaf = new Uint8Array(LEAF_PAGES)
        this.leaves.set(key, leaf)
      }
      const stop = Math.min(last, (key + 1) * LEAF_PAGES)
      for (let j = page - key * LEAF_PAGES; page < stop; page++, j++) {
        const old = leaf[j]
        if (old !== 0) this.mapped[old - 1] -= PAGE
        let code = 0
        if (!unmap) {
          code = this.codeOf(physical)
          if (code === 0) this.unknownPages++
          else this.mapped[code - 1] += PAGE
        }
        leaf[j] = code
        // Pages mapped at physical 0 are system pages: the address does not advance.
        if (physical !== 0) physical += PAGE
      }
    }
  }
}
