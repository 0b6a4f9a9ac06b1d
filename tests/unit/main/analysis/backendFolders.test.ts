/**
 * One folder per backend, sharing only what analysis/ holds for all of them: no backend imports another's folder,
 * and the modules every backend shares import no backend. Read from the sources' import statements.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BACKENDS } from '../../../../src/main/analysis/backends'

const MAIN = resolve(__dirname, '../../../../src/main')
const ANALYSIS = join(MAIN, 'analysis')
const SHARED = resolve(MAIN, '../shared')

/** Every module specifier a source imports or re-exports, static or dynamic (`import type` too). */
function specifiersOf(source: string): string[] {
  const found: string[] = []
  const statement = /(?:^|\n)\s*(?:import|export)\s[^'"]*?\sfrom\s+['"]([^'"]+)['"]/g
  const bare = /(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g
  const dynamic = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g
  for (const re of [statement, bare, dynamic]) for (const m of source.matchAll(re)) found.push(m[1])
  return found
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : []
  })
}

/** The absolute paths (without extension) a file's relative imports point at; packages and node: are left out. */
function importsOf(file: string, source = readFileSync(file, 'utf8')): string[] {
  return specifiersOf(source)
    .filter((s) => s.startsWith('.'))
    .map((s) => resolve(dirname(file), s))
}

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep)
const folders = BACKENDS.map((b) => b.id)
const folderOf = (id: string) => join(ANALYSIS, id)

describe('the backends’ folders', () => {
  it('reads import, export-from, type-only, bare and dynamic imports', () => {
    const file = join(folderOf('observed'), 'x.ts')
    const source = [
      "import { a } from '../vulkan/replay'",
      "import type { B } from '../d3d12/snapshot'",
      "export { c } from '../records'",
      "import {\n  d,\n  e,\n} from '../../model/d3d12/model'",
      "import './side'",
      "const f = await import('../tags')",
      "import fc from 'fast-check'",
    ].join('\n')
    expect(importsOf(file, source).map((p) => relative(MAIN, p).split(sep).join('/'))).toEqual([
      'analysis/vulkan/replay',
      'analysis/d3d12/snapshot',
      'analysis/records',
      'model/d3d12/model',
      'analysis/observed/side',
      'analysis/tags',
    ])
  })

  it('one folder for each listed backend, named by its id', () => {
    for (const id of folders) expect(statSync(folderOf(id)).isDirectory(), id).toBe(true)
    expect(folders).toEqual(['observed', 'vulkan', 'd3d12'])
  })

  for (const id of folders) {
    it(`${id}/ imports no other backend’s folder, only analysis/’s shared modules, model/, ingest/ and shared/`, () => {
      const files = filesUnder(folderOf(id))
      expect(files.length).toBeGreaterThan(3)
      const wrong: string[] = []
      for (const file of files) {
        for (const target of importsOf(file)) {
          const other = folders.some((f) => f !== id && inside(target, folderOf(f)))
          const allowed =
            inside(target, folderOf(id)) ||
            dirname(target) === ANALYSIS ||
            inside(target, join(MAIN, 'model')) ||
            inside(target, join(MAIN, 'ingest')) ||
            inside(target, SHARED)
          if (other || !allowed) wrong.push(`${relative(MAIN, file)} → ${relative(MAIN, target)}`)
        }
      }
      expect(wrong).toEqual([])
    })
  }

  it('the modules every backend shares import no backend’s folder; only the list (backends.ts) names them', () => {
    const wrong: string[] = []
    for (const name of readdirSync(ANALYSIS).filter((n) => n.endsWith('.ts') && n !== 'backends.ts')) {
      const file = join(ANALYSIS, name)
      for (const target of importsOf(file)) if (folders.some((f) => inside(target, folderOf(f)))) wrong.push(`${name} → ${relative(MAIN, target)}`)
    }
    expect(wrong).toEqual([])
    // the list does name each backend's folder, once
    const list = importsOf(join(ANALYSIS, 'backends.ts')).filter((t) => folders.some((f) => inside(t, folderOf(f))))
    expect(list.map((t) => relative(ANALYSIS, t).split(sep).join('/')).sort()).toEqual(['d3d12/backend', 'observed/backend', 'vulkan/backend'])
  })
})
