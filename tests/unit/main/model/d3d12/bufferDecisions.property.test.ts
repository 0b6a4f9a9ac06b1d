import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { BUFFER_STATES, BUFFER_USAGES } from '../../../../../src/shared/capture'
import type { BufferStateMode } from '../../../../../src/shared/capture'
import { KiB, MiB } from '../../../../../src/shared/units'
import {
  BufferDecisions,
  decideBuffer,
  newBufferDecision,
  type BufferDecision,
  type BufferRequest,
} from '../../../../../src/main/model/d3d12/ladder'
import { runs } from '../../../../properties'
import { config, newModel } from './helpers'

const BOUND_KEYS = [
  'upload.smallBlock.maxAllocation',
  'upload.bigBlock.maxAllocation',
  'readbackPool.maxAllocation',
  'asPool.maxAllocation',
  'bufferPool.maxAllocation',
] as const

// Bounds from a few values, so that two keys often share one, with widths drawn on and around them.
const boundArb = fc.constantFrom(0, 16, 256, 4 * KiB, 64 * KiB, 1 * MiB, 16 * MiB)
const configArb = fc.record({
  bounds: fc.array(boundArb, { minLength: BOUND_KEYS.length, maxLength: BOUND_KEYS.length }),
  shared: fc.constantFrom(16, 256, 4 * KiB),
  placed: fc.constantFrom(256, 4 * KiB, 64 * KiB),
  indirect: fc.constantFrom(0, 1),
})
const mask = (...names: (typeof BUFFER_USAGES)[number][]) => names.reduce((m, n) => m | (1 << BUFFER_USAGES.indexOf(n)), 0)
const formArb = fc.record({
  usage: fc.oneof(
    {
      weight: 4,
      arbitrary: fc.constantFrom(
        mask('Static'),
        mask('Uniform', 'Dynamic'),
        mask('Volatile'),
        mask('Static', 'UnorderedAccess', 'StructuredBuffer'),
        mask('UnorderedAccess', 'ByteAddressBuffer'),
        mask('AccelerationStructure'),
        mask('DrawIndirect'),
        mask('Shared'),
        mask('ReservedResource'),
      ),
    },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: (1 << BUFFER_USAGES.length) - 1 }) },
  ),
  stride: fc.constantFrom(0, 4, 16, 20),
  state: fc.constantFrom<BufferStateMode>(...BUFFER_STATES),
  readback: fc.boolean(),
  /** Sizes anywhere, beside those on and around every bound. */
  sizes: fc.array(fc.nat({ max: 64 * MiB }), { maxLength: 4 }),
})
/** Sizes around a bound: their widths (sizes rounded up to 16) fall below it, on it and above it. */
const DELTAS = [-17, -16, -1, 0, 1, 16, 17, 1000]

/** A config and requests of a few forms, each at every bound's sizes and a few others, in a drawn order. */
const caseArb = fc.tuple(configArb, fc.array(formArb, { minLength: 1, maxLength: 6 })).chain(([cfg, forms]) => {
  const over: Record<string, number> = {
    'bufferPool.alignment': cfg.shared,
    'placedBufferPool.alignment': cfg.placed,
    allowPoolAllocateIndirectArgBuffers: cfg.indirect,
  }
  BOUND_KEYS.forEach((key, i) => (over[key] = cfg.bounds[i]))
  const c = config(over)
  const requests: BufferRequest[] = []
  for (const f of forms) {
    const request = (size: number) =>
      requests.push({ size, usage: f.usage, stride: f.stride, state: f.state, readback: f.readback, scratch: false })
    for (const key of BOUND_KEYS) for (const delta of DELTAS) request(Math.max(0, c[key] + delta))
    f.sizes.forEach(request)
  }
  return fc.tuple(fc.constant(c), fc.shuffledSubarray(requests, { minLength: requests.length }))
})

/** decideBuffer the plain way: a fresh decision for each request. */
function reference(req: BufferRequest, c: ReturnType<typeof config>): BufferDecision {
  const out = newBufferDecision()
  decideBuffer(req, c, null, out)
  return out
}

describe('buffer decisions by form', () => {
  it('the decision of a form for a size is the one decideBuffer gives, on, beside and between the bounds', () => {
    fc.assert(
      fc.property(caseArb, ([c, requests]) => {
        const decisions = new BufferDecisions(c)
        // One decision and one request filled again and again, as the model's scratch ones are.
        const out = newBufferDecision()
        const req: BufferRequest = { size: 0, usage: 0, stride: 0, state: 'default', readback: false, scratch: false }
        for (const plain of requests) {
          const form = decisions.formOf(plain)
          decisions.requestOf(form, req).size = plain.size
          expect(req).toEqual(plain)
          decisions.decide(form, req, c, out)
          expect(out).toEqual(reference(plain, c))
        }
      }),
      { numRuns: runs(200) },
    )
  })

  it('equal forms get one number, other forms another', () => {
    const decisions = new BufferDecisions(config())
    const req = (usage: number, state: BufferStateMode): BufferRequest => ({ size: 64, usage, stride: 0, state, readback: false, scratch: false })
    expect(decisions.formOf(req(1, 'default'))).toBe(0)
    expect(decisions.formOf(req(1, 'single'))).toBe(1)
    expect(decisions.formOf({ ...req(1, 'default'), size: 1 << 30 })).toBe(0)
    expect(decisions.formOf({ ...req(1, 'default'), readback: true })).toBe(2)
  })

  it('with a bound that is not a number it decides every request afresh, as decideBuffer does', () => {
    const c = { ...config(), 'upload.smallBlock.maxAllocation': NaN }
    const decisions = new BufferDecisions(c)
    const out = newBufferDecision()
    for (const size of [16, 64 * KiB, 16 * MiB]) {
      const req: BufferRequest = { size, usage: 1 << BUFFER_USAGES.indexOf('Dynamic'), stride: 0, state: 'default', readback: false, scratch: false }
      decisions.decide(decisions.formOf(req), req, c, out)
      expect(out).toEqual(reference(req, c))
    }
  })

  it("a model's copy counts none of the decisions it shares with the original in its size", () => {
    const m = newModel()
    const copy = m.clone({})
    const before = copy.byteSize()
    // The original learns forms and spans; the copy's own tables stay as they were.
    const usages = [['Static'], ['Uniform', 'Dynamic'], ['UnorderedAccess', 'StructuredBuffer'], ['AccelerationStructure']] as const
    for (let i = 0; i < 200; i++) {
      m.createBuffer(2 * i + 1, { size: 16 << i % 20, usage: [...usages[i % 4]], stride: (i % 7) * 4 })
      m.createBufferForm(2 * i + 2, m.bufferFormOfLast(), 1 << i % 24, false, {})
    }
    expect(copy.byteSize()).toBe(before)
  })
})
