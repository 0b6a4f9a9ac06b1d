/**
 * Writes the demo capture shipped with the app (resources/demo/demo.hscap.gz) from the generator's `demo`
 * scenario: `npm run demo`. Deterministic: the same seed gives the same bytes.
 */
import { createWriteStream, mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createGzip } from 'node:zlib'
import { runGen } from '../src/main/cli/gen'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, 'resources/demo/demo.hscap.gz')
mkdirSync(dirname(out), { recursive: true })

const gzip = createGzip({ level: 9 })
const file = createWriteStream(out)
gzip.pipe(file)
const { records } = await runGen('demo', { seed: 1 }, (chunk) =>
  gzip.write(chunk) ? undefined : new Promise<void>((done) => gzip.once('drain', () => done())),
)
gzip.end()
await new Promise<void>((done) => file.once('finish', () => done()))
console.log(`${out}: ${records} records`)
