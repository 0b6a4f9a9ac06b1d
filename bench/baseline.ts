/**
 * The JSON.parse baseline every reader is compared with. Run as a script (bundled to bench/data/baseline.mjs by
 * `npm run bench`), it parses the file named after it in a process of its own and prints the lines parsed: the
 * one-shot baseline beside a one-shot `heapscope report`.
 */
import { createReadStream } from 'node:fs'

/**
 * What any reader must do at least: read 1 MiB chunks, decode UTF-8, split into lines, JSON.parse each.
 * Returns the lines parsed, the header included.
 */
export async function jsonParseBaseline(file: string, chunkSize = 1 << 20): Promise<number> {
  const decoder = new TextDecoder('utf-8')
  let carry = ''
  let parsed = 0
  for await (const chunk of createReadStream(file, { highWaterMark: chunkSize })) {
    const text = carry + decoder.decode(chunk as Buffer, { stream: true })
    let start = 0
    for (;;) {
      const nl = text.indexOf('\n', start)
      if (nl < 0) break
      if (nl > start) {
        JSON.parse(text.slice(start, nl))
        parsed++
      }
      start = nl + 1
    }
    carry = text.slice(start)
  }
  const last = carry + decoder.decode()
  if (last.trim() !== '') {
    JSON.parse(last)
    parsed++
  }
  return parsed
}

if (process.argv[1]?.endsWith('baseline.mjs')) console.log(await jsonParseBaseline(process.argv[2]))
