/** Shared helpers for the D3D12 model tests. */
import { expect } from 'vitest'
import type { BufferDesc, TextureDesc } from '../../../../../src/shared/capture'
import { resolveConfig } from '../../../../../src/shared/model'
import type { ModelConfig } from '../../../../../src/shared/model'
import { KiB, MiB } from '../../../../../src/shared/units'
import type { ModelSink } from '../../../../../src/main/model/events'
import { D3D12Model } from '../../../../../src/main/model/d3d12/model'
import type { D3D12ModelOptions, ModelPlacement, PoolView } from '../../../../../src/main/model/d3d12/model'
import { TOTAL_FIELD, TOTAL_ROWS } from '../../../../../src/main/model/d3d12/totals'
import type { TransientRequest } from '../../../../../src/main/model/d3d12/transient'
import type { Column, RowCopy } from '../../../../../src/main/model/d3d12/rowCopy'

export function config(over: Record<string, number> = {}): ModelConfig {
  return resolveConfig(over)
}

export function newModel(
  over: Record<string, number> = {},
  options: D3D12ModelOptions = {},
  sink: ModelSink = {},
): D3D12Model {
  return new D3D12Model(config(over), options, sink)
}

export function buffer(
  m: D3D12Model,
  id: number,
  size: number,
  usage: BufferDesc['usage'] = ['Static'],
  extra: Partial<BufferDesc> = {},
): ModelPlacement {
  return m.createBuffer(id, { size, usage, ...extra }).copy()
}

export function texture(m: D3D12Model, id: number, desc: TextureDesc): ModelPlacement {
  return m.createTexture(id, desc).copy()
}

/** A sink that records warnings and events by kind. */
export function recordingSink() {
  const warnings: string[] = []
  type Move = { id: number; fromPool: number; fromOffset: number; toPool: number; toOffset: number; bytes: number }
  const moved: (Move & { frame: number })[] = []
  const poolsCreated: { pool: number; name: string; bytes: number; frame: number }[] = []
  const poolsDestroyed: { pool: number; frame: number }[] = []
  const objects: { object: number; bytes: number; priority: string; label: string }[] = []
  const freed: { id: number; frame: number }[] = []
  const sink: ModelSink = {
    warning: (kind) => warnings.push(kind),
    moved: (id, fromPool, fromOffset, toPool, toOffset, bytes, frame) =>
      moved.push({ id, fromPool, fromOffset, toPool, toOffset, bytes, frame }),
    poolCreated: (info, frame) => poolsCreated.push({ pool: info.pool, name: info.name, bytes: info.bytes, frame }),
    poolDestroyed: (pool, frame) => poolsDestroyed.push({ pool, frame }),
    residencyObjectCreated: (object, bytes, priority, label) => objects.push({ object, bytes, priority, label }),
    freed: (id, frame) => freed.push({ id, frame }),
  }
  return { sink, warnings, moved, poolsCreated, poolsDestroyed, objects, freed }
}

/**
 * A copy keeping only the rows `keep` accepts, as a chained checkpoint keeps a table whose other rows a restore
 * never reads (the others then read as their fill, or as an older copy keeps them): the plain reference the
 * checkpoints' copies of written rows are compared with. Changes `copy` and returns it.
 */
export function keepOnly(copy: RowCopy, keep: (row: number) => boolean): RowCopy {
  const at: number[] = []
  for (let k = 0; k < copy.rows.length; k++) if (keep(copy.rows[k])) at.push(k)
  const rows = copy.rows
  copy.rows = Int32Array.from(at, (k) => rows[k])
  copy.values = copy.values.map((v) => {
    const out = new (v.constructor as new (n: number) => Column)(at.length)
    for (let i = 0; i < at.length; i++) out[i] = v[at[i]]
    return out
  })
  return copy
}

/** A drawn transient request: its size in 64 KiB units (plus `extra` on a texture), its two pass ends in any order. */
export interface DrawnRequest {
  kind: 'buffer' | 'texture'
  units: number
  extra: number
  alignment: number
  a: number
  b: number
  desc: number
  rtds: boolean
}

/** The transient allocator's request for a drawn one: a buffer 64 KiB aligned, 4 MiB alignment standing for MSAA. */
export function transientRequest(r: DrawnRequest, id: number): TransientRequest {
  return {
    id,
    kind: r.kind,
    size: r.units * 64 * KiB + (r.kind === 'texture' ? r.extra : 0),
    alignment: r.kind === 'buffer' ? 64 * KiB : r.alignment,
    first: Math.min(r.a, r.b),
    last: Math.max(r.a, r.b),
    desc: (r.kind === 'buffer' ? 0 : 10) + r.desc,
    rtds: r.kind === 'texture' && r.rtds,
    msaa: r.alignment === 4 * MiB,
  }
}

/** A sink that logs the transient allocator's and the residency manager's events, one line each, in order. */
export function transientLog(): { sink: ModelSink; log: string[] } {
  const log: string[] = []
  return {
    log,
    sink: {
      transientHeapCreated: (h, b, f) => log.push(`heap+ ${h} ${b} @${f}`),
      transientHeapDestroyed: (h, f) => log.push(`heap- ${h} @${f}`),
      transientPlaced: (p, f) => log.push(`place ${JSON.stringify(p)} @${f}`),
      madeResident: (o, b, f) => log.push(`+${o}:${b}@${f}`),
      evicted: (o, b, f) => log.push(`-${o}:${b}@${f}`),
      overBudget: (f, r, b) => log.push(`over@${f}:${r}>${b}`),
      residencyObjectCreated: (o, b, p, l, f) => log.push(`res+ ${o} ${b} ${p} ${l} @${f}`),
      residencyObjectDestroyed: (o, f) => log.push(`res- ${o} @${f}`),
      warning: (k, m, f) => log.push(`warn ${k} ${m} @${f}`),
    },
  }
}

export function pool(m: D3D12Model, name: string): PoolView {
  const p = m.pools().find((x) => x.name === name)
  if (!p) throw new Error(`no pool ${name}; pools: ${m.pools().map((x) => x.name).join(', ')}`)
  return p
}

/** Pools whose allocations align to the pool's own alignment (placed strategies), with that alignment. */
export function placedAlignment(name: string): number {
  if (name.includes('TextureReadOnly4K')) return 4 * KiB
  if (name.includes('MultiState') || name.includes('Texture')) return 64 * KiB
  return 0
}

/**
 * The structural invariants of every pool: blocks tile the pool from 0 without gap or overlap, used + pending +
 * free = size, every live allocation lies inside a block of its pool at an offset honouring its alignment, and the
 * totals agree with the pools.
 */
export function checkInvariants(m: D3D12Model): void {
  const pools = m.pools()
  const byId = new Map(pools.map((p) => [p.pool, p]))
  for (const p of pools) {
    let at = 0
    let used = 0
    let pending = 0
    for (const b of p.blocks) {
      expect(b.offset, `${p.name}: block at ${b.offset} should start at ${at}`).toBe(at)
      expect(b.size).toBeGreaterThan(0)
      at += b.size
      if (b.state === 'used') used += b.size
      if (b.state === 'pending') pending += b.size
    }
    if (!p.name.startsWith('UPLOAD/FastAllocator')) {
      expect(at, `${p.name}: blocks cover the pool`).toBe(p.bytes)
      expect(used, `${p.name}: used`).toBe(p.used)
      expect(pending, `${p.name}: pending`).toBe(p.pending)
    }
    expect(p.used + p.pending + p.free, `${p.name}: used + pending + free = size`).toBe(p.bytes)
  }
  for (const a of m.liveAllocations()) {
    if (a.pool < 0) continue
    const p = byId.get(a.pool)!
    expect(p, `allocation ${a.id} in a live pool`).toBeDefined()
    const block = p.blocks.find((b) => b.id === a.id)
    expect(block, `allocation ${a.id} owns a block of ${p.name}`).toBeDefined()
    expect(a.offset).toBeGreaterThanOrEqual(block!.offset)
    expect(a.offset + a.requested).toBeLessThanOrEqual(block!.offset + block!.size)
    const placed = placedAlignment(p.name)
    expect(a.offset % (placed || a.alignment), `allocation ${a.id} at ${a.offset} in ${p.name}`).toBe(0)
  }
  // Totals: every pool row's heap bytes split into occupied, free and pending.
  for (let row = 0; row < TOTAL_ROWS.length; row++) {
    const heap = m.totals.get(row, TOTAL_FIELD.Heap)
    const sum = m.totals.get(row, TOTAL_FIELD.Occupied) + m.totals.get(row, TOTAL_FIELD.PoolFree) + m.totals.get(row, TOTAL_FIELD.Pending)
    expect(sum, `${TOTAL_ROWS[row]}: heap = occupied + free + pending`).toBe(heap)
    expect(m.totals.get(row, TOTAL_FIELD.Waste)).toBe(m.totals.get(row, TOTAL_FIELD.Occupied) - m.totals.get(row, TOTAL_FIELD.Requested))
  }
}
