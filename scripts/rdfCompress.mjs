/**
 * Rewrite an RDF file (an .rmv trace) with every chunk's data zstd-compressed, as Radeon Developer Panel writes
 * them when compression is on: each chunk's header kept, its data compressed by the reference `zstd` command
 * (level 19), its index entry saying compression 1 with the compressed and uncompressed sizes, the index last.
 *
 *   node scripts/rdfCompress.mjs IN.rmv OUT.rmv        (needs the zstd command: apt-get install -y zstd)
 *
 * It made tests/fixtures/rmv-sample-trace-rx6600.zstd.rmv from the real sample.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

const [source, target] = process.argv.slice(2)
if (!source || !target) {
  console.error('usage: node scripts/rdfCompress.mjs IN.rmv OUT.rmv')
  process.exit(1)
}
const file = readFileSync(source)
const view = new DataView(file.buffer, file.byteOffset, file.length)
const i64 = (offset) => Number(view.getBigInt64(offset, true))
const RDF_HEADER = 32
const INDEX_ENTRY = 64
const indexOffset = i64(16)
const indexSize = i64(24)

const header = Buffer.from(file.subarray(0, RDF_HEADER))
const parts = [header]
const entries = []
let at = RDF_HEADER
for (let e = indexOffset; e < indexOffset + indexSize; e += INDEX_ENTRY) {
  const entry = Buffer.from(file.subarray(e, e + INDEX_ENTRY))
  const fields = new DataView(entry.buffer, entry.byteOffset, INDEX_ENTRY)
  const chunkHeader = file.subarray(i64(e + 24), i64(e + 24) + i64(e + 32))
  const dataSize = i64(e + 48)
  const data = file.subarray(i64(e + 40), i64(e + 40) + dataSize)
  const compressed = execFileSync('zstd', ['-19', '-c', '-q'], { input: data, maxBuffer: 1 << 30 })
  parts.push(Buffer.from(chunkHeader))
  fields.setBigInt64(24, BigInt(at), true)
  at += chunkHeader.length
  parts.push(compressed)
  fields.setBigInt64(40, BigInt(at), true)
  fields.setBigInt64(48, BigInt(compressed.length), true)
  fields.setBigInt64(56, BigInt(dataSize), true)
  at += compressed.length
  entry[16] = 1
  entries.push(entry)
  console.error(`${entry.subarray(0, 16).toString().replace(/\0+$/, '')}: ${dataSize} -> ${compressed.length} bytes`)
}
const fields = new DataView(header.buffer, header.byteOffset, RDF_HEADER)
fields.setBigInt64(16, BigInt(at), true)
fields.setBigInt64(24, BigInt(entries.length * INDEX_ENTRY), true)
writeFileSync(target, Buffer.concat([...parts, ...entries]))
