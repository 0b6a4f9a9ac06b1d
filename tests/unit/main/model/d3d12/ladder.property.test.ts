import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { BUFFER_USAGES } from '../../../../../src/shared/capture'
import { usageMask } from '../../../../../src/main/model/d3d12/ladder'
import { runs } from '../../../../properties'

/** The mask the plain way: each known name's bit. */
const reference = (list: readonly string[]) =>
  list.reduce((mask, name) => mask | (BUFFER_USAGES.includes(name as never) ? 1 << BUFFER_USAGES.indexOf(name as never) : 0), 0)

describe('usage masks', () => {
  it('a frozen list, looked up again and again, has the mask of its names, as an unfrozen one', () => {
    const names = fc.constantFrom(...BUFFER_USAGES, 'Unknown')
    fc.assert(
      fc.property(fc.array(fc.array(names, { maxLength: 5 }), { minLength: 1, maxLength: 20 }), (lists) => {
        const frozen = lists.map((l) => Object.freeze([...l]))
        // Twice over: the second pass answers the frozen lists from what the first learnt.
        for (let pass = 0; pass < 2; pass++) {
          lists.forEach((list, i) => {
            expect(usageMask(list)).toBe(reference(list))
            expect(usageMask(frozen[i])).toBe(reference(list))
          })
        }
      }),
      { numRuns: runs(100) },
    )
  })

  it('an unfrozen list changed in place gives its new mask', () => {
    const list = ['Static']
    expect(usageMask(list)).toBe(reference(['Static']))
    list.push('UnorderedAccess')
    expect(usageMask(list)).toBe(reference(['Static', 'UnorderedAccess']))
  })
})
