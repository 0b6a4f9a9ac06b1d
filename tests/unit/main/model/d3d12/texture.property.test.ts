import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { TEXTURE_FLAGS, type TextureDesc, type TextureDim } from '../../../../../src/shared/capture'
import { RouteTrace } from '../../../../../src/main/model/d3d12/route'
import {
  decideTexture,
  newGeometry,
  newTextureDecision,
  readGeometry,
  TextureDecisions,
  type TextureDecision,
} from '../../../../../src/main/model/d3d12/texture'
import { runs } from '../../../../properties'
import { config, newModel } from './helpers'

// A small space of descs, so that equal descs come back often (the cache answers them) beside new ones: absent
// fields, -0 beside 0, NaN, fractional and odd values, unknown formats and flags, every dimension.
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 4 })
const side = fc.constantFrom(0, -0, 1, 3, 64, 100, 255, 256, 1024, 1920, 4097, NaN, 2.5)
const descArb: fc.Arbitrary<TextureDesc> = fc.record(
  {
    dim: maybe(fc.constantFrom<TextureDim>('2d', '2darray', '3d', 'cube', 'cubearray')),
    format: maybe(fc.constantFrom('BC7_UNORM', 'BC1_UNORM', 'R8G8B8A8_UNORM', 'R16G16B16A16_FLOAT', 'NV12', 'D32_FLOAT', 'R32G32B32_FLOAT', 'NOT_A_FORMAT', '')),
    width: maybe(side),
    height: maybe(side),
    depth: maybe(fc.constantFrom(0, 1, 2, 6, 64)),
    mips: maybe(fc.constantFrom(0, 1, 3, 11, 20)),
    samples: maybe(fc.constantFrom(1, 2, 4, 8, 16)),
    flags: maybe(fc.subarray([...TEXTURE_FLAGS, 'Unknown' as (typeof TEXTURE_FLAGS)[number]], { maxLength: 3 })),
    size: maybe(fc.constantFrom(0, -0, 4096, 65536, 1 << 20, 5 << 20, 300 << 20, NaN)),
    align: maybe(fc.constantFrom(0, 4096, 65536, 1 << 22)),
  },
  { requiredKeys: [] },
)

/** decideTexture read the plain way: the desc's geometry each time, into a fresh decision. */
function reference(desc: TextureDesc, trace: RouteTrace | null = null): TextureDecision {
  const out = newTextureDecision()
  decideTexture(readGeometry(desc, newGeometry()), config(), trace, out)
  return out
}

describe('texture decisions by desc', () => {
  it('the cache gives the decision decideTexture gives for every desc, new or seen before', () => {
    fc.assert(
      fc.property(fc.array(descArb, { minLength: 1, maxLength: 60 }), (descs) => {
        const cache = new TextureDecisions()
        const c = config()
        // One decision filled again and again, as the model's scratch one is.
        const out = newTextureDecision()
        for (const desc of descs) {
          const form = cache.decide(desc, c, out)
          expect(form).toBeGreaterThanOrEqual(0)
          expect(out).toEqual(reference(desc))
          // The desc rebuilt from its number decides alike (a texture's route is worked out from it).
          expect(reference(cache.descOf(form, {}))).toEqual(reference(desc))
        }
      }),
      { numRuns: runs(200) },
    )
  })

  it("a model's texture placements and routes are those of the plain ladder, equal descs or not", () => {
    fc.assert(
      fc.property(fc.array(descArb, { minLength: 1, maxLength: 40 }), (descs) => {
        const m = newModel()
        descs.forEach((desc, id) => {
          const p = m.createTexture(id, desc)
          const trace = new RouteTrace()
          const d = reference(desc, trace)
          expect(p.requested).toBe(d.requested)
          expect(p.alignment).toBe(d.alignment)
          expect(p.estimated).toBe(d.estimated)
          expect(p.route).toEqual(trace.render())
        })
      }),
      { numRuns: runs(100) },
    )
  })

  it('a desc with a field of another type is not cached', () => {
    const out = newTextureDecision()
    expect(new TextureDecisions().decide({ width: '64' as unknown as number }, config(), out)).toBe(-1)
    expect(new TextureDecisions().decide({ format: 7 as unknown as string }, config(), out)).toBe(-1)
  })
})
