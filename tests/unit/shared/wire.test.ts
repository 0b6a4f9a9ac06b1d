import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeMessage, encodeMessage, WireError } from '../../../src/shared/wire'

describe('browser host wire codec', () => {
  it('round-trips structure and typed arrays, whatever their offsets', () => {
    const backing = new Float64Array([9, 1.5, 2 ** 53 - 1, -0.25, 7])
    const message = {
      id: 3,
      value: { frame: backing.subarray(1, 4), chunk: new Uint8Array([1, 2, 3]), n: 'x', list: [new Uint32Array([5, 6])] },
    }
    const out = decodeMessage(encodeMessage(message)) as typeof message
    expect(out.id).toBe(3)
    expect(Array.from(out.value.frame)).toEqual([1.5, 2 ** 53 - 1, -0.25])
    expect(out.value.frame).toBeInstanceOf(Float64Array)
    expect(Array.from(out.value.chunk)).toEqual([1, 2, 3])
    expect(Array.from(out.value.list[0])).toEqual([5, 6])
  })

  it('decodes from a view into a larger pooled buffer without reading outside it', () => {
    const encoded = encodeMessage({ data: new Uint8Array([10, 20, 30]) })
    const pool = new Uint8Array(encoded.length + 100).fill(0xee)
    pool.set(encoded, 37)
    const out = decodeMessage(pool.subarray(37, 37 + encoded.length)) as { data: Uint8Array }
    expect(Array.from(out.data)).toEqual([10, 20, 30])
    expect(out.data.buffer.byteLength).toBe(3)
  })

  it('refuses truncated and lying messages with a WireError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        try {
          decodeMessage(bytes)
        } catch (err) {
          return err instanceof WireError || err instanceof SyntaxError
        }
        return true
      }),
    )
    const lying = new TextEncoder().encode('{"x":{"$ta":"constructor","o":0,"n":0}}')
    const message = new Uint8Array(8 + lying.length)
    new DataView(message.buffer).setUint32(0, lying.length, true)
    message.set(lying, 4)
    expect(() => decodeMessage(message)).toThrow(WireError)
    const encoded = encodeMessage({ data: new Float64Array(4) })
    expect(() => decodeMessage(encoded.subarray(0, encoded.length - 8))).toThrow(WireError)
  })
})
