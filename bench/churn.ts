/**
 * What a checkpoint that kept only what changed would hold: the D3D12 model's allocation and block rows that differ
 * between two states a given number of records apart, at five points of a capture. A row counts as changed when any
 * of its columns differs, a free row read as a packed checkpoint restores it (zeros); its bytes are the packed
 * row's (float columns as 32-bit integers, as the packed copy keeps them when it can) plus its slot number. Also the
 * share of pages of 8 and 64 rows in which no row changed (what copy-on-write pages of that size would share), and
 * the bytes of the whole packed copy at that point. Run with `npm run bench:churn -- FILE [--gap N]` (8 000).
 */
import { Replay } from '../src/main/analysis/d3d12/replay'
import { loadCaptureFile } from '../src/main/ingest/read'
import type { D3D12Model } from '../src/main/model/d3d12/model'
import { resolveConfig } from '../src/shared/model'
import { formatBytes } from '../src/shared/units'

const args = process.argv.slice(2)
const file = args.find((a) => !a.startsWith('--'))
if (!file) throw new Error('usage: npm run bench:churn -- FILE [--gap RECORDS]')
const gapAt = args.indexOf('--gap')
const GAP = gapAt >= 0 ? Number(args[gapAt + 1]) : 8_000

type Column = Float64Array | Int32Array | Uint8Array
type Table = Record<string, Column> & { count: number }

const ALLOCATION_COLUMNS = [
  'id', 'kind', 'state', 'loc', 'placement', 'heap', 'flags', 'pool', 'block', 'base', 'offset', 'size', 'requested',
  'alignment', 'poolAlignment', 'committed', 'commitRequested', 'created', 'lockFrame', 'object',
]
const BLOCK_COLUMNS = ['offset', 'size', 'prev', 'next', 'state', 'owner']

/** The model's allocation and block tables (private to the model: read here, never written). */
function tables(model: D3D12Model): { allocs: Table; blocks: Table; releasedBlocks: Set<number> } {
  const m = model as unknown as { allocs: Table; blocks: Table & { freeSlots: number[] } }
  return { allocs: m.allocs, blocks: m.blocks, releasedBlocks: new Set(m.blocks.freeSlots) }
}

/** Bytes of one packed row: 4 for the slot, then each column at its packed width. */
function rowBytes(table: Table, columns: string[], used: (slot: number) => boolean): number {
  let bytes = 4
  for (const name of columns) {
    const column = table[name]
    if (column instanceof Float64Array) {
      let narrow = true
      for (let s = 0; s < table.count && narrow; s++) if (used(s) && (column[s] | 0) !== column[s]) narrow = false
      bytes += narrow ? 4 : 8
    } else bytes += column.BYTES_PER_ELEMENT
  }
  return bytes
}

/** Which rows of two states of a table differ (a free row reads as zeros, as a packed copy restores it). */
function changedRows(a: Table, b: Table, columns: string[], usedA: (s: number) => boolean, usedB: (s: number) => boolean): Uint8Array {
  const n = Math.max(a.count, b.count)
  const changed = new Uint8Array(n)
  for (const name of columns) {
    const ca = a[name]
    const cb = b[name]
    for (let s = 0; s < n; s++) {
      const va = s < a.count && usedA(s) ? ca[s] : 0
      const vb = s < b.count && usedB(s) ? cb[s] : 0
      if (!Object.is(va, vb)) changed[s] = 1
    }
  }
  return changed
}

function unchangedPages(changed: Uint8Array, page: number): number {
  let pages = 0
  let same = 0
  for (let s = 0; s < changed.length; s += page) {
    pages++
    let any = 0
    for (let k = s; k < Math.min(changed.length, s + page); k++) any |= changed[k]
    if (any === 0) same++
  }
  return same / Math.max(1, pages)
}

const result = await loadCaptureFile(file)
if (result.error) throw result.error
const store = result.store
const config = resolveConfig(store.header.config as Record<string, number> | undefined, {})
const replay = await Replay.run(store, { config })
const first = store.frames.firstRecord
/** The last frame index starting at or before record `record`. */
function frameAt(record: number): number {
  let lo = 0
  let hi = store.frames.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (first[mid] <= record) lo = mid
    else hi = mid - 1
  }
  return lo
}

const records = store.records.length
console.log(`${file}: ${records} records; states about ${GAP} records apart, allocation and block rows that differ:`)
let total = 0
for (let k = 1; k <= 5; k++) {
  const at = Math.floor((records * (2 * k - 1)) / 10)
  const fa = frameAt(at - GAP)
  const fb = frameAt(at)
  const a = tables(replay.modelAt(fa).model)
  const stateB = replay.modelAt(fb).model
  const b = tables(stateB)
  const allocUsedA = (s: number) => a.allocs.state[s] !== 0
  const allocUsedB = (s: number) => b.allocs.state[s] !== 0
  const blockUsedA = (s: number) => !a.releasedBlocks.has(s)
  const blockUsedB = (s: number) => !b.releasedBlocks.has(s)
  const allocs = changedRows(a.allocs, b.allocs, ALLOCATION_COLUMNS, allocUsedA, allocUsedB)
  const blocks = changedRows(a.blocks, b.blocks, BLOCK_COLUMNS, blockUsedA, blockUsedB)
  const count = (c: Uint8Array) => c.reduce((sum, v) => sum + v, 0)
  const delta =
    count(allocs) * rowBytes(b.allocs, ALLOCATION_COLUMNS, allocUsedB) + count(blocks) * rowBytes(b.blocks, BLOCK_COLUMNS, blockUsedB)
  const span = first[fb] - first[fa]
  total += delta / span
  const full = stateB.clone({}, { packed: true }).byteSize()
  const pct = (x: number) => `${(100 * x).toFixed(0)} %`
  console.log(
    `  records ${first[fa]}–${first[fb]}: allocations ${count(allocs)} of ${allocs.length}, blocks ${count(blocks)} of ${blocks.length}; ` +
      `${formatBytes(delta)} (${(delta / span).toFixed(1)} B/record) against ${formatBytes(full)} packed whole; ` +
      `pages unchanged: 8 rows ${pct(unchangedPages(allocs, 8))} / ${pct(unchangedPages(blocks, 8))}, ` +
      `64 rows ${pct(unchangedPages(allocs, 64))} / ${pct(unchangedPages(blocks, 64))}`,
  )
}
console.log(`  mean ${(total / 5).toFixed(1)} B/record of changed rows`)
