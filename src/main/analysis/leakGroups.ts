/**
 * Leak candidates in groups: a leak is rarely one resource but a name made again and again ("Emitter_12.Buffer",
 * "Emitter_13.Buffer", …) or a tag that only grows. Candidates (created after A, alive at B) are grouped by name
 * with runs of digits folded, and by tag; each group says how many, how many bytes, how fast it grew, and whether
 * its resources were created steadily over the range and never freed, which is what a leak looks like.
 */
import type { LeakGroup } from '../../shared/ipc'
import { recordRange, RECORD_KIND, type CaptureStore } from '../ingest/store'
import { IdTable } from '../model/idTable'
import { createdIdOf, descRowOf, descTableOf } from './records'
import type { ResourceTable } from './resourceTable'

/** Groups listed per kind, at most: a capture of a million names needs no million-row group table. */
export const LEAK_GROUPS_PER_KIND = 5000

/** "Mesh_012.LOD3" → "Mesh_#.LOD#". */
export function namePattern(name: string): string {
  return name.replace(/\d+/g, '#')
}

/** What a group counts while its range is read (exported for the tests' reference walk). */
export interface Tally {
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

/**
 * A range's tallies by name pattern and by tag, as its records are read, and the groups they give (exported for the
 * tests' reference walk, which reads the range its own way into the same tallies).
 */
export class RangeTallies {
  /** The frame number the range starts after, and its length in frames (at least 1). */
  readonly after: number
  readonly span: number
  readonly byName = new Map<string, Tally>()
  readonly byTag = new Map<string, Tally>()

  constructor(store: CaptureStore, from: number, to: number) {
    this.after = store.frames.n[from]
    this.span = Math.max(1, store.frames.n[to] - this.after)
  }

  /** The tally of a name pattern, made at its first use. */
  name(pattern: string): Tally {
    return tallyIn(this.byName, pattern)
  }

  /** The tally of a tag, made at its first use. */
  tag(tag: string): Tally {
    return tallyIn(this.byTag, tag)
  }

  /** A creation in frame number `frame` counted into `t`. */
  static created(t: Tally, frame: number): void {
    t.created++
    t.firstCreated = Math.min(t.firstCreated, frame)
    t.lastCreated = Math.max(t.lastCreated, frame)
    if (t.lastFrame !== frame) {
      t.frames++
      t.lastFrame = frame
    }
  }

  /** The candidates of `atB` (created after the range's start) counted into their tallies, and the groups of both kinds. */
  groups(atB: ResourceTable): LeakGroup[] {
    for (let i = 0; i < atB.length; i++) {
      if (atB.created[i] <= this.after) continue
      const name = this.name(namePattern(atB.text.name[i]))
      const tag = this.tag(atB.text.tag[i])
      name.count++
      name.bytes += atB.occupied[i]
      tag.count++
      tag.bytes += atB.occupied[i]
    }
    return [...groupsOf('name', this.byName, this.span), ...groupsOf('tag', this.byTag, this.span)]
  }
}

function tallyIn(map: Map<string, Tally>, key: string): Tally {
  let t = map.get(key)
  if (!t) map.set(key, (t = tally()))
  return t
}

/** The name and tag string ids of what a create record makes (a buffer, texture, placed or transient resource). */
export function labelsOf(store: CaptureStore, record: number): [number, number] {
  const descs = descTableOf(store, record)
  const row = descRowOf(store, record)
  return [descs.name.data[row], descs.tag.data[row]]
}

/**
 * The groups of the candidates in `atB` (the live table at frame index `to`) created after frame index `from`;
 * `atA` (the live table at `from`) names what was alive before the range, so its releases count for its group.
 */
export function leakGroups(store: CaptureStore, atA: ResourceTable, atB: ResourceTable, from: number, to: number): LeakGroup[] {
  const tallies = new RangeTallies(store, from, to)
  const text = (id: number) => store.strings.get(id) ?? ''
  // a name's and a tag's tallies by their string id: each string decoded, folded and looked up once, however often
  // it is made
  const nameTallies = new Map<number, Tally>()
  const tagTallies = new Map<number, Tally>()
  const nameTally = (id: number) => {
    let t = nameTallies.get(id)
    if (t === undefined) nameTallies.set(id, (t = tallies.name(namePattern(text(id)))))
    return t
  }
  const tagTally = (id: number) => {
    let t = tagTallies.get(id)
    if (t === undefined) tagTallies.set(id, (t = tallies.tag(text(id))))
    return t
  }
  // What each live id belongs to, for the releases in the range: 2k for row k of `atA` (its name and tag as the
  // table reads them), 2r + 1 for create record r in the range. A flat table for densely numbered ids (IdTable).
  const keysOf = new IdTable()
  for (let i = 0; i < atA.length; i++) keysOf.set(atA.id[i], 2 * i)
  const { start, end } = recordRange(store, from + 1, to + 1)
  const { kind, ref } = store.records
  const { firstRecord, n: frameNumbers } = store.frames
  let f = from + 1
  for (let i = start; i < end; i++) {
    const k = kind[i]
    if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed || k === RECORD_KIND.transient) {
      while (f + 1 < firstRecord.length && firstRecord[f + 1] <= i) f++
      const frame = frameNumbers[f]
      const [nameId, tagId] = labelsOf(store, i)
      const name = nameTally(nameId)
      const tag = tagTally(tagId)
      RangeTallies.created(name, frame)
      RangeTallies.created(tag, frame)
      // a transient lives within its graph: created and gone in its frame
      if (k === RECORD_KIND.transient) {
        name.freed++
        tag.freed++
      } else keysOf.set(createdIdOf(store, i), 2 * i + 1)
    } else if (k === RECORD_KIND.release) {
      const owner = keysOf.get(store.ops[ref[i]])
      if (owner === undefined) continue
      if ((owner & 1) === 0) {
        tallies.name(namePattern(atA.text.name[owner / 2])).freed++
        tallies.tag(atA.text.tag[owner / 2]).freed++
      } else {
        const [nameId, tagId] = labelsOf(store, (owner - 1) / 2)
        nameTally(nameId).freed++
        tagTally(tagId).freed++
      }
    }
  }
  return tallies.groups(atB)
}

/** The groups of a kind's tallies, steady ones first, then by bytes: at most LEAK_GROUPS_PER_KIND. */
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
