/**
 * Unknown members interned by their bytes: the text a record's members join to, found again for the same bytes
 * and told apart from bytes that differ anywhere (a text kept is compared byte for byte, commas included); and
 * through the scanner, each record with the text of its own members, which reads back as their JSON.
 */
import { describe, expect, it } from 'vitest'
import { ExtrasText } from '../../../../src/main/ingest/extras'
import { bytesOf, lines, scan } from './helpers'

/**
 * `members` written one after the other with `between` (a space: copied to be joined; a comma: taken where they
 * stand), each span recorded, and taken as one text from a buffer with a word of room after them, as a scanner's.
 */
function takeWith(extras: ExtrasText, between: string, ...members: string[]): string {
  const text = bytesOf(members.join(between))
  const buf = new Uint8Array(text.length + 4)
  buf.set(text)
  // the room holds bytes that are not the text's: a compare or hash that read them would tell texts apart wrongly
  buf.fill(0x5a, text.length)
  let at = 0
  for (const m of members) {
    extras.add(at, at + bytesOf(m).length)
    at += bytesOf(m).length + bytesOf(between).length
  }
  lastId = extras.take(buf, new DataView(buf.buffer))
  return lastId > 0 ? extras.text(lastId) : new TextDecoder().decode(extras.looseBytes.subarray(extras.looseStart, extras.looseEnd))
}

/** The number the last take gave its text: 0 where the table did not keep it (its bytes then in looseBytes). */
let lastId = 0

const take = (extras: ExtrasText, ...members: string[]): string => takeWith(extras, ' ', ...members)

describe('unknown members interned by their bytes', () => {
  it('join with commas, found again for the same bytes and told apart from others', () => {
    const extras = new ExtrasText()
    const a = take(extras, '"tiling":"optimal"', '"required":["DEVICE_LOCAL"]')
    expect(a).toBe('"tiling":"optimal","required":["DEVICE_LOCAL"]')
    const again = take(extras, '"tiling":"optimal"', '"required":["DEVICE_LOCAL"]')
    expect(again).toBe(a)
    // one member holding the same text as two joined: the same text, so the same string
    expect(take(extras, '"tiling":"optimal","required":["DEVICE_LOCAL"]')).toBe(a)
    expect(take(extras, '"tiling":"linear"', '"required":["DEVICE_LOCAL"]')).toBe('"tiling":"linear","required":["DEVICE_LOCAL"]')
    expect(take(extras, '"tiling":"optimal"')).toBe('"tiling":"optimal"')
    expect(take(extras, '"x":"é"')).toBe('"x":"é"')
    expect(extras.count).toBe(0)
  })

  it('take members side by side where they stand, the same text and number as when they are joined', () => {
    const extras = new ExtrasText()
    const spaced = take(extras, '"memoryRequirements":{"size":1024,"alignment":256}', '"explicit":true')
    const id = lastId
    const inPlace = takeWith(extras, ',', '"memoryRequirements":{"size":1024,"alignment":256}', '"explicit":true')
    expect(inPlace).toBe(spaced)
    expect(lastId).toBe(id)
    // texts of every length up to three words, equal but for their last byte, each its own: the last word's
    // bytes are compared and hashed, not the room after them
    const seen = new Map<string, number>()
    for (let n = 1; n <= 12; n++) {
      for (const last of ['1', '2']) {
        const member = `"${'k'.repeat(n)}":${last}`
        expect(takeWith(extras, ',', member)).toBe(member)
        expect(seen.has(member)).toBe(false)
        seen.set(member, lastId)
      }
    }
    expect(new Set(seen.values()).size).toBe(seen.size)
    for (const [member, number] of seen) {
      expect(take(extras, member)).toBe(member)
      expect(lastId).toBe(number)
    }
  })

  it('read from a capture, each record with the text of its own members, equal texts as one string', () => {
    const records = [
      { e: 'buffer', id: 1, size: 256, usage: ['Uniform'], tiling: 'optimal', memoryRequirements: { size: 256, alignment: 256 } },
      { e: 'buffer', id: 2, size: 512, tiling: 'optimal', usage: ['Uniform'], memoryRequirements: { size: 256, alignment: 256 } },
      { e: 'buffer', id: 3, size: 512, usage: ['Uniform'], tiling: 'linear', memoryRequirements: { size: 256, alignment: 256 } },
      { e: 'buffer', id: 4, size: 512, usage: ['Uniform'] },
    ]
    const { store, error } = scan(lines(...records))
    expect(error).toBeUndefined()
    const texts = [...store.extras].map(([, text]) => text)
    expect(texts).toEqual([
      '"tiling":"optimal","memoryRequirements":{"size":256,"alignment":256}',
      '"tiling":"optimal","memoryRequirements":{"size":256,"alignment":256}',
      '"tiling":"linear","memoryRequirements":{"size":256,"alignment":256}',
    ])
    expect(store.extras.size).toBe(3)
    for (const t of texts) expect(JSON.parse(`{${t}}`)).toHaveProperty('memoryRequirements.alignment', 256)
    // each text's number: the same for the same text, another for another
    expect([0, 1, 2].map((i) => store.extras.idAt(i))).toEqual([1, 1, 2])
  })

  it('number each text kept, the same text the same number, and give 0 past the bounds', () => {
    const extras = new ExtrasText()
    take(extras, '"a":1')
    const first = lastId
    take(extras, '"b":2')
    const second = lastId
    take(extras, '"a":1')
    expect([first, second, lastId]).toEqual([1, 2, 1])
    // 70 000 new texts, each followed by one that comes back, so that the table stays warm and keeps them all, past
    // its bound of 65 536 texts
    for (let i = 0; i < 70_000; i++) {
      take(extras, `"k":${i}`)
      take(extras, '"a":1')
    }
    expect(take(extras, '"late":true')).toBe('"late":true')
    expect(lastId).toBe(0)
    // past them, no text is looked up: one kept before comes decoded again, without its number
    expect(take(extras, '"b":2')).toBe('"b":2')
    expect(lastId).toBe(0)
  })

  it('stop numbering texts that never come back but one in sixteen, and number them again once they do', () => {
    const extras = new ExtrasText()
    for (let i = 0; i < 10_000; i++) take(extras, `"callstack":${i}`)
    // cold since the 4 097th: of the next 160 new texts, ten are interned and numbered, the others only decoded
    const sampled: string[] = []
    for (let i = 10_000; i < 10_160; i++) {
      const text = take(extras, `"callstack":${i}`)
      expect(text).toBe(`"callstack":${i}`)
      if (lastId > 0) sampled.push(text)
    }
    expect(sampled).toHaveLength(10)
    // a text numbered before the table went cold is found only when its turn is a sampled one
    const early = Array.from({ length: 16 }, () => (take(extras, '"callstack":7'), lastId))
    expect(early.filter((id) => id === 8)).toHaveLength(1)
    expect(early.filter((id) => id === 0)).toHaveLength(15)
    // texts that come back: the sampled ones, each found lowers the score by 128, from 8 192 to under 4 096 within 32
    // finds (512 takes); then every new text is numbered again
    for (let k = 0; k < 60; k++) for (const text of sampled) take(extras, text)
    take(extras, '"callstack":-1')
    const warm = lastId
    take(extras, '"callstack":-2')
    // 4 097 numbered while warm (the score passed 4 096 with the last of them), 368 + 10 sampled while cold: the next
    // two numbers
    expect([warm, lastId]).toEqual([4096 + 379 + 1, 4096 + 379 + 2])
  })
})
