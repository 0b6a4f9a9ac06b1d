/**
 * Leak candidates in groups: a leak is rarely one resource but a name made again and again ("Emitter_12.Buffer",
 * "Emitter_13.Buffer", …) or a tag that only grows. Candidates (created after A, alive at B) are grouped by name
 * with runs of digits folded, and by tag; each group says how many, how many bytes, how fast it grew, and whether
 * its resources were created steadily over the range and never freed, which is what a leak looks like.
 */
import type { LeakGroup } from '../../shared/ipc'
import { recordRange, RECORD_KIND, type CaptureStore } from '../ingest/store'
import { createdIdOf, frameOfRecord } from './records'
import type { ResourceTable } from './resourceTable'

/** Groups listed per kind, at most: a capture of a million names needs no million-row group table. */
export const LEAK_GROUPS_PER_KIND = 5000

/** "Mesh_012.LOD3" → "Mesh_#.LOD#". */
export function namePattern(name: string): string {
  return name.replace(/\d+/g, '#')
}

interface Tally {
  count: number
  bytes: number
  created: number
  freed: number
  firstCreated: number
  lastCreated: number
  /** Frames with a creation, counted once each. */
  frames: number
  lastFrame: number
}

const tally = (): Tally => ({ count: 0, bytes: 0, created: 0, freed: 0, firstCreated: Infinity, lastCreated: -Infinity, frames: 0, lastFrame: -1 })

/** The name and tag string ids of what a create record makes (a buffer, texture, placed or transient resource). */
function labelsOf(store: CaptureStore, record: number): [number, number] {
  const kind = store.records.kind[record]
  const r = store.records.ref[record]
  if (kind === RECORD_KIND.buffer) return [store.buffers.name.data[r], store.buffers.tag.data[r]]
  if (kind === RECORD_KIND.texture) return [store.textures.name.data[r], store.textures.tag.data[r]]
  const table = kind === RECORD_KIND.transient ? store.transients : store.placed
  const desc = table.desc.data[r]
  return table.kind.data[r] === 0
    ? [store.buffers.name.data[desc], store.buffers.tag.data[desc]]
    : [store.textures.name.data[desc], store.textures.tag.data[desc]]
}

/**
 * The groups of the candidates in `atB` (the live table at frame index `to`) created after frame index `from`;
 * `atA` (the live table at `from`) names what was alive before the range, so its releases count for its group.
 */
export function leakGroups(store: CaptureStore, atA: ResourceTable, atB: ResourceTable, from: number, to: number): LeakGroup[] {
  const after = store.frames.n[from]
  const span = Math.max(1, store.frames.n[to] - after)
  const byName = new Map<string, Tally>()
  const byTag = new Map<string, Tally>()
  const get = (map: Map<string, Tally>, key: string) => {
    let t = map.get(key)
    if (!t) map.set(key, (t = tally()))
    return t
  }
  // what each live id belongs to, for the releases in the range
  const keysOf = new Map<number, [string, string]>()
  for (let i = 0; i < atA.length; i++) keysOf.set(atA.id[i], [namePattern(atA.text.name[i]), atA.text.tag[i]])
  const text = (id: number) => store.strings.get(id) ?? ''
  // a name's pattern and a tag's text by their string id: each string decoded and folded once, however often it is made
  const patterns = new Map<number, string>()
  const tags = new Map<number, string>()
  const patternOf = (id: number) => {
    let p = patterns.get(id)
    if (p === undefined) patterns.set(id, (p = namePattern(text(id))))
    return p
  }
  const tagOf = (id: number) => {
    let t = tags.get(id)
    if (t === undefined) tags.set(id, (t = text(id)))
    return t
  }
  const { start, end } = recordRange(store, from + 1, to + 1)
  const { kind, ref } = store.records
  const created = (t: Tally, frame: number) => {
    t.created++
    t.firstCreated = Math.min(t.firstCreated, frame)
    t.lastCreated = Math.max(t.lastCreated, frame)
    if (t.lastFrame !== frame) {
      t.frames++
      t.lastFrame = frame
    }
  }
  for (let i = start; i < end; i++) {
    const k = kind[i]
    if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed || k === RECORD_KIND.transient) {
      const [nameId, tagId] = labelsOf(store, i)
      const keys: [string, string] = [patternOf(nameId), tagOf(tagId)]
      const frame = store.frames.n[frameOfRecord(store.frames.firstRecord, i)]
      const name = get(byName, keys[0])
      const tag = get(byTag, keys[1])
      created(name, frame)
      created(tag, frame)
      // a transient lives within its graph: created and gone in its frame
      if (k === RECORD_KIND.transient) {
        name.freed++
        tag.freed++
      } else keysOf.set(createdIdOf(store, i), keys)
    } else if (k === RECORD_KIND.release) {
      const keys = keysOf.get(store.ops[ref[i]])
      if (!keys) continue
      get(byName, keys[0]).freed++
      get(byTag, keys[1]).freed++
    }
  }
  for (let i = 0; i < atB.length; i++) {
    if (atB.created[i] <= after) continue
    const name = get(byName, namePattern(atB.text.name[i]))
    const tag = get(byTag, atB.text.tag[i])
    name.count++
    name.bytes += atB.occupied[i]
    tag.count++
    tag.bytes += atB.occupied[i]
  }
  return [...groupsOf('name', byName, span), ...groupsOf('tag', byTag, span)]
}

function groupsOf(by: LeakGroup['by'], map: Map<string, Tally>, span: number): LeakGroup[] {
  const out: LeakGroup[] = []
  for (const [key, t] of map) {
    if (t.count === 0) continue
    const steady = t.freed === 0 && t.frames >= 3 && t.lastCreated - t.firstCreated >= span / 2
    out.push({
      by,
      key,
      count: t.count,
      bytes: t.bytes,
      bytesPerFrame: t.bytes / span,
      created: t.created,
      freed: t.freed,
      firstCreated: Number.isFinite(t.firstCreated) ? t.firstCreated : 0,
      lastCreated: Number.isFinite(t.lastCreated) ? t.lastCreated : 0,
      steady,
    })
  }
  out.sort((a, b) => Number(b.steady) - Number(a.steady) || b.bytes - a.bytes || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
  return out.slice(0, LEAK_GROUPS_PER_KIND)
}
