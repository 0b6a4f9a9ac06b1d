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
  groups(atB: ResourceTable, nameTally: (row: number) => Tally = (row) => this.name(namePattern(atB.text.name[row]))): LeakGroup[] {
    const tags = atB.text.tag
    for (let i = 0; i < atB.length; i++) {
      if (atB.created[i] <= this.after) continue
      const name = nameTally(i)
      const tag = this.tag(tags[i])
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
  // A name's and a tag's tallies by their string id, in arrays (the ids are dense; any outside the table reads as
  // '', and shares the last place): each string decoded, folded and looked up once, however often it is made.
  const strings = store.strings.size
  const nameTallies = new Array<Tally | undefined>(strings + 1).fill(undefined)
  const tagTallies = new Array<Tally | undefined>(strings + 1).fill(undefined)
  const text = (id: number) => (id < strings ? (store.strings.get(id) ?? '') : '')
  // The places of a create record's name and tag, set by `slots` (its desc table and row found once for both).
  let nameId = 0
  let tagId = 0
  const slots = (record: number): void => {
    const descs = descTableOf(store, record)
    const row = descRowOf(store, record)
    nameId = slotOf(descs.name.data[row], strings)
    tagId = slotOf(descs.tag.data[row], strings)
  }
  // A table row's name tally by its text, folded once per distinct name.
  const byText = new Map<string, Tally>()
  const nameOfText = (name: string): Tally => {
    let t = byText.get(name)
    if (t === undefined) byText.set(name, (t = tallies.name(namePattern(name))))
    return t
  }
  // What each live id belongs to, for the releases in the range: 2k for row k of `atA` (its name and tag as the
  // table reads them), 2r + 1 for create record r in the range. A flat table for densely numbered ids (IdTable).
  const keysOf = new IdTable()
  for (let i = 0; i < atA.length; i++) keysOf.set(atA.id[i], 2 * i)
  const { start, end } = recordRange(store, from + 1, to + 1)
  const { kind, ref } = store.records
  const { firstRecord, n: frameNumbers } = store.frames
  const ops = store.ops
  let f = from + 1
  for (let i = start; i < end; i++) {
    const k = kind[i]
    if (k === RECORD_KIND.buffer || k === RECORD_KIND.texture || k === RECORD_KIND.placed || k === RECORD_KIND.transient) {
      while (f + 1 < firstRecord.length && firstRecord[f + 1] <= i) f++
      const frame = frameNumbers[f]
      slots(i)
      const name = (nameTallies[nameId] ??= tallies.name(namePattern(text(nameId))))
      const tag = (tagTallies[tagId] ??= tallies.tag(text(tagId)))
      RangeTallies.created(name, frame)
      RangeTallies.created(tag, frame)
      // a transient lives within its graph: created and gone in its frame
      if (k === RECORD_KIND.transient) {
        name.freed++
        tag.freed++
      } else keysOf.set(createdIdOf(store, i), 2 * i + 1)
    } else if (k === RECORD_KIND.release) {
      const owner = keysOf.get(ops[ref[i]])
      if (owner === undefined) continue
      if ((owner & 1) === 0) {
        nameOfText(atA.text.name[owner / 2]).freed++
        tallies.tag(atA.text.tag[owner / 2]).freed++
      } else {
        slots((owner - 1) / 2)
        nameTallies[nameId]!.freed++
        tagTallies[tagId]!.freed++
      }
    }
  }
  // A candidate was created in the range: its name's tally is its create record's, where the table shows that name
  // (a backend may show another: a Vulkan object's `name` record).
  const names = atB.text.name
  const nameOfRow = (row: number): Tally => {
    const record = atB.createRecord[row]
    if (record >= 0) {
      slots(record)
      const t = nameTallies[nameId]
      if (t !== undefined && text(nameId) === names[row]) return t
    }
    return nameOfText(names[row])
  }
  return tallies.groups(atB, nameOfRow)
}

/** A string id's place in arrays of `strings` + 1: its own, or the last for any outside the table (NaN included). */
function slotOf(id: number, strings: number): number {
  return id >= 0 && id < strings ? id : strings
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
