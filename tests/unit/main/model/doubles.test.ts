import { describe, expect, it } from 'vitest'
import { doubleFields } from '../../../../src/main/model/doubles'

describe('doubleFields', () => {
  it('gives every field its value back, whatever it was', () => {
    const o = { a: 0, b: -1, c: 2 ** 40, d: undefined as number | undefined, e: 'kept', f: 7 }
    const same = doubleFields(o, ['a', 'b', 'c', 'd'])
    expect(same).toBe(o)
    expect(o).toEqual({ a: 0, b: -1, c: 2 ** 40, d: undefined, e: 'kept', f: 7 })
    // a zero comes back as +0, not -0 (toEqual would not tell them apart)
    expect(Object.is(o.a, 0)).toBe(true)
  })

  it('leaves the fields it is not given alone, and works on a class instance in its constructor', () => {
    class Pool {
      used = 0
      pending = 0
      name = 'p'
      constructor() {
        doubleFields(this, ['used', 'pending'])
      }
    }
    const p = new Pool()
    p.used += 65536
    expect(p).toMatchObject({ used: 65536, pending: 0, name: 'p' })
  })
})
