/**
 * The members of an extra-keys text the Vulkan replay reads (vulkanMembers): the 1.1 fields' members in their
 * order, the others left out, so that texts differing only in a callstack id give one string; and what JSON.parse
 * reads of the 1.1 fields from it is what it reads from the whole text, whatever the other members hold.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { vulkanMembers } from '../../../../../src/main/analysis/vulkan/replay'
import { runs } from '../../../../properties'

const FIELDS = ['memoryRequirements', 'required', 'preferred', 'tiling', 'dedicated', 'explicit'] as const
const fieldsOf = (text: string) => {
  const x = JSON.parse(`{${text}}`) as Record<string, unknown>
  return FIELDS.map((k) => x[k])
}

describe('the members of an extra-keys text the Vulkan replay reads', () => {
  it('keeps the 1.1 fields in their order and leaves the others out', () => {
    expect(
      vulkanMembers(
        '"callstack":140694538683345,"memoryRequirements":{"size":256,"alignment":256,"memoryTypeBits":15},"module":"a,b}","preferred":["DEVICE_LOCAL"]',
      ),
    ).toBe('"memoryRequirements":{"size":256,"alignment":256,"memoryTypeBits":15},"preferred":["DEVICE_LOCAL"]')
    expect(vulkanMembers('"callstack":1')).toBe('')
    expect(vulkanMembers('')).toBe('')
    // a string holding quotes, commas and brackets does not end a member; a key that only starts like a field's is
    // not one
    expect(vulkanMembers('"note":"\\"x\\",{[","tilingMode":"x", "tiling":"linear"')).toBe('"tiling":"linear"')
    // nested members of the same name stay inside their member
    expect(vulkanMembers('"debug":{"tiling":"linear","required":[]},"explicit":true')).toBe('"explicit":true')
    // a key written with an escape is kept: JSON.parse may read it as a field's
    expect(vulkanMembers('"til\\u0069ng":"linear","x":2')).toBe('"til\\u0069ng":"linear"')
    expect(fieldsOf(vulkanMembers('"til\\u0069ng":"linear","x":2'))[3]).toBe('linear')
  })

  it('gives what JSON.parse reads of the 1.1 fields from the whole text', () => {
    const key = fc.oneof(
      fc.constantFrom(...FIELDS),
      fc.constantFrom('callstack', 'module', 'tilingX', 'x,y', 'a"b', 'req\\uired'),
      fc.string({ maxLength: 6 }),
    )
    const member = fc.tuple(key, fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('', ' ')).map(
      ([k, v, space]) => `${JSON.stringify(k)}${space}:${space}${JSON.stringify(v)}`,
    )
    fc.assert(
      fc.property(fc.array(member, { maxLength: 8 }), (members) => {
        const text = members.join(',')
        expect(fieldsOf(vulkanMembers(text))).toEqual(fieldsOf(text))
      }),
      { numRuns: runs(300) },
    )
  })
})
