/**
 * FD3D12FastAllocator's page pool (seed §5.3): committed UPLOAD buffers of fastAllocator.pageSize, bump-allocated
 * one at a time. A full page goes back to the pool stamped with the current frame and is reused, whole, once the
 * GPU finished that frame; a new page is created only when no returned page is reusable. Above
 * MIN_PAGES_TO_RETAIN pages, at most one page unused for pool.emptyFramesBeforeRelease frames is released per
 * frame (FD3D12FastAllocatorPagePool::CleanupPages).
 */
import { HEAP_INDEX } from './ladder'
import { TOTAL_FIELD, ROW_FAST_PAGE } from './totals'
import type { Totals } from './totals'
import type { Bytes, Frame } from '../../../shared/units'

/** d3d12.FastAllocator.MinPagesToRetain */
export const MIN_PAGES_TO_RETAIN = 5

export interface FastPage {
  id: number
  /** Serial number within the allocator (the name's last part). */
  index: number
  /** Frame stamped when the page was last returned; the GPU must finish it before reuse. */
  frame: Frame
  /** Bytes bump-allocated in the page since it was taken. */
  used: Bytes
  /** Counted as occupied: the current page, or returned and not yet finished by the GPU. */
  busy: boolean
  createdFrame: Frame
}

export class FastAllocatorPages {
  readonly pageSize: Bytes
  current: FastPage | null = null
  offset: Bytes = 0
  /** Returned pages, least recently returned first. */
  pool: FastPage[] = []
  private created = 0

  constructor(pageSize: Bytes) {
    this.pageSize = pageSize
  }

  /**
   * Bump-allocates `count` allocations of `size` bytes (size ≤ pageSize), taking pages as needed. Arithmetic per
   * page, not per allocation: an upload record of thousands of constants costs a few operations.
   */
  allocate(size: Bytes, count: number, frame: Frame, completed: Frame, totals: Totals, nextId: () => number): void {
    if (size <= 0 || count <= 0) return
    let left = count
    while (left > 0) {
      if (this.current === null) this.take(frame, completed, totals, nextId)
      const fit = Math.floor((this.pageSize - this.offset) / size)
      if (fit === 0) {
        this.giveBack(frame)
        continue
      }
      const n = Math.min(fit, left)
      this.offset += n * size
      this.current!.used = this.offset
      left -= n
    }
  }

  /** Returned pages whose frame the GPU finished stop counting as occupied. */
  complete(completed: Frame, totals: Totals): void {
    for (const page of this.pool) {
      if (page.busy && page.frame <= completed) {
        page.busy = false
        page.used = 0
        totals.add(ROW_FAST_PAGE, HEAP_INDEX.UPLOAD, TOTAL_FIELD.Occupied, -this.pageSize)
        totals.add(ROW_FAST_PAGE, HEAP_INDEX.UPLOAD, TOTAL_FIELD.Requested, -this.pageSize)
        totals.add(ROW_FAST_PAGE, HEAP_INDEX.UPLOAD, TOTAL_FIELD.PoolFree, this.pageSize)
      }
    }
  }

  /** Releases at most one idle page beyond the retained minimum; returns the released page's id or -1. */
  cleanUp(completed: Frame, frameLag: number, totals: Totals): number {
    if (this.pool.length <= MIN_PAGES_TO_RETAIN) return -1
    for (let i = 0; i < this.pool.length; i++) {
      const page = this.pool[i]
      if (!page.busy && page.frame + frameLag <= completed) {
        this.pool.splice(i, 1)
        totals.pool(ROW_FAST_PAGE, HEAP_INDEX.UPLOAD, -this.pageSize)
        return page.id
      }
    }
    return -1
  }

  pages(): FastPage[] {
    return this.current ? [this.current, ...this.pool] : this.pool.slice()
  }

  clone(): FastAllocatorPages {
    const c = new FastAllocatorPages(this.pageSize)
    const copy = (p: FastPage): FastPage => ({ ...p })
    c.current = this.current ? copy(this.current) : null
    c.offset = this.offset
    c.pool = this.pool.map(copy)
    c.created = this.created
    return c
  }

  private take(frame: Frame, completed: Frame, totals: Totals, nextId: () => number): void {
    let page: FastPage | null = null
    for (let i = 0; i < this.pool.length; i++) {
      if (this.pool[i].frame <= completed) {
        page = this.pool[i]
        this.pool.splice(i, 1)
        break
      }
    }
    if (page === null) {
      page = { id: nextId(), index: this.created++, frame, used: 0, busy: false, createdFrame: frame }
      totals.pool(ROW_FAST_PAGE, HEAP_INDEX.UPLOAD, this.pageSize)
    }
    if (!page.busy) {
      page.busy = true
      totals.add(ROW_FAST_PAGE, HEAP_INDEX.UPLOAD, TOTAL_FIELD.Occupied, this.pageSize)
      totals.add(ROW_FAST_PAGE, HEAP_INDEX.UPLOAD, TOTAL_FIELD.Requested, this.pageSize)
      totals.add(ROW_FAST_PAGE, HEAP_INDEX.UPLOAD, TOTAL_FIELD.PoolFree, -this.pageSize)
    }
    page.used = 0
    this.current = page
    this.offset = 0
  }

  private giveBack(frame: Frame): void {
    const page = this.current!
    page.frame = frame
    this.pool.push(page)
    this.current = null
    this.offset = 0
  }
}
