import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  decodeHead,
  decodeText,
  detectEncoding,
  findJsonSyntaxError,
  ImportError,
  ImportNotes,
  parseJsonSlice,
  peekObjectString,
  skipJsonValue,
  textUnits,
} from '../../../../../src/main/ingest/importers/source'
import { utf16, utf8 } from './dump'

function withBom(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length + 3)
  out.set([0xef, 0xbb, 0xbf])
  out.set(bytes, 3)
  return out
}

describe('text decoding', () => {
  it('detects the encoding by BOM, and BOM-less UTF-16 by its NUL bytes', () => {
    expect(detectEncoding(withBom(utf8('{}')))).toEqual({ encoding: 'utf-8', bom: 3 })
    expect(detectEncoding(utf16('{}', 'le'))).toEqual({ encoding: 'utf-16le', bom: 2 })
    expect(detectEncoding(utf16('{}', 'be'))).toEqual({ encoding: 'utf-16be', bom: 2 })
    expect(detectEncoding(utf16('{}', 'le', false))).toEqual({ encoding: 'utf-16le', bom: 0 })
    expect(detectEncoding(utf16('{}', 'be', false))).toEqual({ encoding: 'utf-16be', bom: 0 })
    expect(detectEncoding(utf8('{}'))).toEqual({ encoding: 'utf-8', bom: 0 })
  })

  it('strips a UTF-8 BOM and decodes UTF-16 both ways', () => {
    const text = '{"Name": "décor 岩石 😀"}'
    expect(decodeText(withBom(utf8(text)))).toBe(text)
    expect(decodeText(utf16(text, 'le'))).toBe(text)
    expect(decodeText(utf16(text, 'be'))).toBe(text)
  })

  it('decodes UTF-16 from a view that starts at an odd byte offset', () => {
    const le = utf16('{"a": 1}', 'le')
    const backing = new Uint8Array(le.length + 1)
    backing.set(le, 1)
    expect(decodeText(backing.subarray(1))).toBe('{"a": 1}')
  })

  it('round-trips any string through every encoding', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (s) => {
        const text = `"${s}"`
        expect(decodeText(utf8(text))).toBe(text)
        expect(decodeText(withBom(utf8(text)))).toBe(text)
        expect(decodeText(utf16(text, 'le'))).toBe(text)
        expect(decodeText(utf16(text, 'be'))).toBe(text)
      }),
    )
  })

  it('decodes only the head it is given', () => {
    const head = decodeHead(utf8('x'.repeat(10000)))
    expect(head.length).toBe(4096)
    // UTF-16: 4096 bytes are the 2-byte BOM and 2047 units
    expect(decodeHead(utf16('y'.repeat(5000), 'le')).length).toBe(2047)
  })

  it('maps unit indexes to byte offsets and lines', () => {
    // "a\nbé\nc": é is 2 bytes in UTF-8, so 'c' (unit 6 of the UTF-8 units) is byte 6 + 3 for the BOM, line 3
    const u8 = textUnits(withBom(utf8('a\nbé\nc')))
    expect(u8.length).toBe(7)
    expect(u8.byteOffset(6)).toBe(9)
    expect(u8.lineAt(6)).toBe(3)
    // UTF-16 LE: 'c' is unit 5, byte 2 + 2 × 5 = 12
    const u16 = textUnits(utf16('a\nbé\nc', 'le'))
    expect(u16.slice(5, 6)).toBe('c')
    expect(u16.byteOffset(5)).toBe(12)
    expect(u16.lineAt(5)).toBe(3)
  })
})

describe('findJsonSyntaxError', () => {
  it('accepts valid JSON', () => {
    for (const text of ['0', '-1.5e+3', '"a\\u00e9\\n"', '[]', '{}', ' {"a": [1, {"b": null}, true, false]} ', '[[[[]]]]']) {
      expect(findJsonSyntaxError(text), text).toBeNull()
    }
  })

  it('names the place and what was expected', () => {
    // 17 characters: the text ends at index 17 where a key was expected after the last ','
    expect(findJsonSyntaxError('{"a": 1, "b": 2, ')).toMatchObject({ index: 17, expected: expect.stringContaining('a string key'), found: 'the end of the text' })
    expect(findJsonSyntaxError('{"a": 1 "b": 2}')).toMatchObject({ index: 8, expected: "',' or '}' after an object member", found: "'\"'" })
    expect(findJsonSyntaxError('[1, 2,]')).toMatchObject({ index: 6, expected: 'a value', found: "']'" })
    expect(findJsonSyntaxError('{"a": tru}')).toMatchObject({ index: 9, expected: 'the literal true' })
    expect(findJsonSyntaxError('{"a": 01}')).toMatchObject({ index: 7 })
    expect(findJsonSyntaxError('"a\tb"')).toMatchObject({ index: 2 })
    expect(findJsonSyntaxError('{} x')).toMatchObject({ index: 3, expected: 'the end of the text after the top-level value' })
    expect(findJsonSyntaxError('')).toMatchObject({ index: 0, expected: 'a value' })
    expect(findJsonSyntaxError('{"a": [1, {"b": 2')?.expected).toContain('still open: }]}')
  })

  it('agrees with JSON.parse on every truncation of valid JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), fc.nat(), (value, pretty, cut) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined)
        expect(findJsonSyntaxError(text)).toBeNull()
        const truncated = text.slice(0, cut % (text.length + 1))
        let valid = true
        try {
          JSON.parse(truncated)
        } catch {
          valid = false
        }
        const fault = findJsonSyntaxError(truncated)
        expect(fault === null).toBe(valid)
        if (fault) expect(fault.index).toBeLessThanOrEqual(truncated.length)
      }),
    )
  })

  it('agrees with JSON.parse on valid JSON with one character replaced', () => {
    const alphabet = fc.constantFrom(...'{}[]:,"\\ 0-.eEtfnu1x\t\n')
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), alphabet, (value, at, c) => {
        const text = JSON.stringify(value)
        const i = at % text.length
        const mutated = text.slice(0, i) + c + text.slice(i + 1)
        let valid = true
        try {
          JSON.parse(mutated)
        } catch {
          valid = false
        }
        expect(findJsonSyntaxError(mutated) === null).toBe(valid)
      }),
    )
  })
})

describe('parseJsonSlice', () => {
  it('names the byte offset and line of a fault in UTF-8 after multi-byte characters', () => {
    // '{"é": 1,\n "x" 2}': é takes 2 bytes, so the fault at character 14 ('2', where ':' was expected) is byte 15,
    // plus 3 for the BOM: 18, on line 2
    const bytes = withBom(utf8('{"é": 1,\n "x" 2}'))
    const text = textUnits(bytes)
    const error = catchError(() => parseJsonSlice('f.json', text, 0, text.length, 'the dump'))
    expect(error).toBeInstanceOf(ImportError)
    expect(error).toMatchObject({ file: 'f.json', offset: 18, line: 2, expected: "':' after a key" })
    expect(error.message).toBe("f.json: line 2, byte 18: the dump is not valid JSON: expected ':' after a key, found '2'")
  })

  it('names the byte offset of a fault in UTF-16', () => {
    // the same text in UTF-16 LE: character 14 is byte 2 + 2 × 14 = 30
    const text = textUnits(utf16('{"é": 1,\n "x" 2}', 'le'))
    expect(catchError(() => parseJsonSlice('f.json', text, 0, text.length, 'the dump'))).toMatchObject({ offset: 30, line: 2 })
  })
})

describe('skipJsonValue', () => {
  it('steps over values, strings with escaped quotes and brackets included', () => {
    const units = utf8('{"a": "}\\"]", "b": [1, {"c": 2}]} , 12 ,"x"')
    // the object ends at index 33 (just past its '}')
    expect(skipJsonValue(units, 0)).toBe(33)
    expect(skipJsonValue(units, 36)).toBe(38)
    expect(skipJsonValue(units, 40)).toBe(43)
    expect(skipJsonValue(utf8('{"a": [1, 2'), 0)).toBe(-1)
    expect(skipJsonValue(utf8('"abc'), 0)).toBe(-1)
  })
})

describe('peekObjectString', () => {
  const peek = (text: string, key = 'name') => {
    const units = utf8(text)
    return peekObjectString(units, 0, units.length, key)
  }

  it('reads a top-level string member, not one nested deeper', () => {
    expect(peek('{"name": "Heap", "ph": "N"}')).toBe('Heap')
    expect(peek('{"args": {"name": "inner", "x": ["name"]}, "cat": "a,b", "name" : "outer"}')).toBe('outer')
    // a value that looks like the key is not the key
    expect(peek('{"ph": "name", "id": 1}')).toBeUndefined()
    expect(peek('{"ph": "i"}')).toBeUndefined()
  })

  it('gives up on what it cannot read from raw units', () => {
    expect(peek('{"name": "a\\"b"}')).toBeUndefined()
    expect(peek('{"name": "décor"}')).toBeUndefined()
    expect(peek('{"name": 12}')).toBeUndefined()
    expect(peek('{"name": "unterminated')).toBeUndefined()
  })

  it('reads UTF-16 units the same way', () => {
    const units = textUnits(utf16('{"tid": 1, "name": "ResourceAllocation"}', 'le')).units
    expect(peekObjectString(units, 0, units.length, 'name')).toBe('ResourceAllocation')
  })
})

describe('ImportNotes', () => {
  it('keeps the first few of a kind and counts the rest', () => {
    const notes = new ImportNotes(2)
    for (let i = 0; i < 5; i++) notes.add('gap', `gap ${i}`)
    notes.add('total', 'total')
    expect(notes.count('gap')).toBe(5)
    expect(notes.list()).toEqual(['gap 0', 'gap 1', '… and 3 more of the kind "gap"', 'total'])
  })
})

function catchError(run: () => unknown): ImportError {
  try {
    run()
  } catch (error) {
    return error as ImportError
  }
  throw new Error('expected an error')
}
