import { describe, expect, it } from 'vitest'
import { csvField, toCsv } from '../../../../src/renderer/src/lib/csv'

describe('csv', () => {
  it('quotes what needs quoting and ends lines with CRLF', () => {
    const csv = toCsv<{ a: string; b: number }>(
      [
        { header: 'a', value: (r) => r.a },
        { header: 'b,c', value: (r) => r.b },
      ],
      [
        { a: 'x"y', b: 1 },
        { a: 'line\nbreak', b: NaN },
      ],
    )
    expect(csv).toBe('a,"b,c"\r\n"x""y",1\r\n"line\nbreak",\r\n')
    expect(csvField(null)).toBe('')
    expect(csvField(false)).toBe('false')
  })
})
