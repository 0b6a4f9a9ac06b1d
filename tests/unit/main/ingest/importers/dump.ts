/**
 * A readable dump of an imported capture for golden snapshots: the format, the header as sorted JSON, the notes,
 * then one line per record in record order, fields in the order the importer wrote them.
 */
import { readFileSync } from 'node:fs'
import type { ImportedCapture, ImportSource } from '../../../../../src/main/ingest/importers'

const FIXTURES = new URL('../../../../fixtures/', import.meta.url)

export function fixture(path: string, name = path.split('/').pop()!): ImportSource {
  return { name, bytes: new Uint8Array(readFileSync(new URL(path, FIXTURES))) }
}

export function dumpCapture(capture: ImportedCapture): string {
  const lines = [`format ${capture.format}`, `header ${sortedJson(capture.header)}`]
  for (const note of capture.notes) lines.push(`note ${note}`)
  for (const record of capture.records) {
    const fields = Object.entries(record)
      .filter(([key, value]) => key !== 'e' && value !== undefined)
      .map(([key, value]) => `${key}=${formatValue(value)}`)
    lines.push([record.e, ...fields].join(' '))
  }
  return lines.join('\n') + '\n'
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value)
  if (Array.isArray(value)) return `[${value.map((v) => (typeof v === 'string' ? v : sortedJson(v))).join(',')}]`
  if (typeof value === 'object' && value !== null) return sortedJson(value)
  return String(value)
}

export function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v
    return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  })
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text)
}

/** The text as UTF-16 with a BOM, little- or big-endian. */
export function utf16(text: string, endian: 'le' | 'be', bom = true): Uint8Array {
  const out = new Uint8Array((bom ? 2 : 0) + text.length * 2)
  let p = 0
  if (bom) {
    out[p++] = endian === 'le' ? 0xff : 0xfe
    out[p++] = endian === 'le' ? 0xfe : 0xff
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    out[p++] = endian === 'le' ? c & 0xff : c >> 8
    out[p++] = endian === 'le' ? c >> 8 : c & 0xff
  }
  return out
}
