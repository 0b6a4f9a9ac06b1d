import { describe, expect, it } from 'vitest'
import {
  attemptToImportGpgmm,
  attemptToImportVma,
  IMPORTERS,
  ImportError,
  importCapture,
  sniffFormat,
} from '../../../../../src/main/ingest/importers'
import { fixture, utf8 } from './dump'

const samples = [
  { path: 'real/vma-dump-rx6600xt.json', format: 'vma-json', source: 'vma-json', direct: attemptToImportVma },
  { path: 'real/vma2-dump-sample.json', format: 'vma-json', source: 'vma-json', direct: attemptToImportVma },
  { path: 'd3d12ma-dump-utf16.json', format: 'vma-json', source: 'd3d12ma-json', direct: attemptToImportVma },
  { path: 'real/gpgmm-dawn-queuewritebuffer.json', format: 'gpgmm-trace', source: 'gpgmm-trace', direct: attemptToImportGpgmm },
]

describe('dispatcher', () => {
  for (const sample of samples) {
    it(`detects ${sample.path} by content, under an unknown name`, () => {
      const named = fixture(sample.path)
      const unnamed = { name: 'capture.bin', bytes: named.bytes }
      // the first 4 KiB decide
      expect(sniffFormat(named.bytes.subarray(0, 4096))).toBe(sample.format)
      expect(sniffFormat(named.bytes)).toBe(sample.format)
      const imported = importCapture(unnamed)
      expect(imported?.format).toBe(sample.format)
      expect(imported?.header.source).toBe(sample.source)
      expect(imported).toEqual(sample.direct(named))
    })
  }

  it('recognises nothing in a native capture, plain JSON or binary data', () => {
    const native = utf8('{"format":"heapscope-capture","version":1}\n{"e":"frame","n":0}\n')
    for (const bytes of [native, utf8('{"a": 1}'), utf8('[]'), new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0]), new Uint8Array()]) {
      expect(sniffFormat(bytes)).toBeNull()
      expect(importCapture({ name: 'x.json', bytes })).toBeNull()
    }
  })

  it('lets a broken file of a detected format fail with an ImportError', () => {
    const { bytes } = fixture('real/gpgmm-dawn-queuewritebuffer.json')
    expect(() => importCapture({ name: 'cut.json', bytes: bytes.subarray(0, 9000) })).toThrow(ImportError)
  })

  it('lists each importer once, the recognisers first', () => {
    const names = IMPORTERS.map((i) => i.name)
    expect(names.slice(0, 2)).toEqual(['vma-json', 'gpgmm-trace'])
    expect(new Set(names).size).toBe(names.length)
  })
})
