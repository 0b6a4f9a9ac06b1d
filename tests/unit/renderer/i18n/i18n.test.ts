import { parse, NodeTypes, type ElementNode, type TemplateChildNode } from '@vue/compiler-dom'
import { describe, expect, it } from 'vitest'
import en from '../../../../src/renderer/src/i18n/en'
import zhCN from '../../../../src/renderer/src/i18n/zh-CN'

/** The renderer's sources as text, by path (Vite reads them; the renderer's tests have no Node types). */
const SOURCES = import.meta.glob<string>(['../../../../src/renderer/src/**/*.vue', '../../../../src/renderer/src/**/*.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
})

function files(ext: RegExp): [string, string][] {
  return Object.entries(SOURCES).filter(([path]) => ext.test(path))
}

/** Every message path of a messages object, as "a.b.c". */
function paths(messages: object, prefix = ''): string[] {
  const out: string[] = []
  for (const [k, v] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${k}` : k
    if (typeof v === 'string') out.push(path)
    else out.push(...paths(v as object, path))
  }
  return out
}

function lookup(messages: object, path: string): unknown {
  let node: unknown = messages
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return node
}

describe('messages', () => {
  it('Simplified Chinese has every English message, in Chinese', () => {
    const enPaths = paths(en)
    expect(paths(zhCN).sort()).toEqual(enPaths.filter((p) => !p.startsWith('configHelp.')).concat(paths(zhCN).filter((p) => p.startsWith('configHelp.'))).sort())
    // the same text in both languages only for the model's own words and units
    const same = enPaths.filter((p) => lookup(en, p) === lookup(zhCN, p))
    for (const p of same) expect(p, `${p} is not translated`).toMatch(/^(app\.name|placement\.|settings\.languages\.|compare\.(bMinusA|deltaShort)|export\.(png|csv)|aliasing\.passRange)/)
    // Chinese text where English has words
    const chinese = enPaths.filter((p) => /[\u4e00-\u9fff]/.test(String(lookup(zhCN, p))))
    expect(chinese.length).toBeGreaterThan(enPaths.length * 0.8)
  })

  it("every series family's label and every heap lane's words are messages", async () => {
    const { SERIES_KINDS, placeSeries } = await import('../../../../src/shared/series')
    for (const kind of SERIES_KINDS) expect(typeof lookup(en, kind.label), kind.label).toBe('string')
    const device = { vulkan: { heaps: [{ index: 0, name: 'Heap 0', flags: [] }], types: [], maxMemoryAllocationCount: 1 } }
    for (const name of ['heap.DEFAULT.heapBytes', 'vkheap.0.allocatedBytes', 'memory.local.heapBytes']) {
      for (const key of Object.values(placeSeries(name, device)!.heap!.words)) expect(typeof lookup(en, key), key).toBe('string')
    }
    // the memory kinds the observed traces name have words for what they are (RMV, GPGMM, a utrace)
    for (const memory of ['local', 'invisible', 'system', 'non-local', 'video']) {
      const note = placeSeries(`memory.${memory}.heapBytes`, {})!.heap!.note!
      expect([typeof lookup(en, note), typeof lookup(zhCN, note)], note).toEqual(['string', 'string'])
    }
  })

  it('names every backend in the run header, in both languages', async () => {
    const { BACKEND_IDS } = await import('../../../../src/shared/series')
    for (const id of BACKEND_IDS) expect([typeof lookup(en, `run.backend.${id}`), typeof lookup(zhCN, `run.backend.${id}`)], id).toEqual(['string', 'string'])
    expect(lookup(en, 'run.backend.d3d12')).toBe('D3D12 model (UE 5.8)')
  })

  it('every config key the model has is described in Chinese', async () => {
    const { CONFIG_KEY_NAMES } = await import('../../../../src/shared/model')
    const help = zhCN.configHelp
    for (const key of CONFIG_KEY_NAMES) expect(help[key.replace(/\./g, '_')], key).toMatch(/[\u4e00-\u9fff]/)
  })

  it('every message the code names exists', () => {
    const missing: string[] = []
    const all = files(/\.(vue|ts)$/)
    expect(all.length).toBeGreaterThan(30)
    for (const [file, text] of all) {
      for (const m of text.matchAll(/\bt\(\s*'([\w.-]+)'/g)) {
        if (typeof lookup(en, m[1]) !== 'string') missing.push(`${file}: ${m[1]}`)
      }
      // keys built at run time: their fixed prefix must name a group of messages
      for (const m of text.matchAll(/\bt\(\s*`([\w.]+)\.\$\{/g)) {
        const group = lookup(en, m[1])
        if (typeof group !== 'object' || group === null) missing.push(`${file}: ${m[1]}.*`)
      }
    }
    expect(missing).toEqual([])
  })

  it('no template shows text that is not a message', () => {
    const found: string[] = []
    // single letters naming runs A and B, and signs, are not words
    const allowed = /^[\s\d.,:;·×—–→←↺⇄‹›…?+−%()#A-B/|]*$/
    const visit = (file: string, nodes: TemplateChildNode[]) => {
      for (const node of nodes) {
        if (node.type === NodeTypes.TEXT && !allowed.test(node.content)) found.push(`${file}: "${node.content.trim()}"`)
        if (node.type === NodeTypes.ELEMENT) {
          const el = node as ElementNode
          for (const prop of el.props) {
            if (prop.type === NodeTypes.ATTRIBUTE && ['title', 'placeholder', 'aria-label', 'alt'].includes(prop.name) && prop.value && !allowed.test(prop.value.content)) {
              found.push(`${file}: ${prop.name}="${prop.value.content}"`)
            }
          }
          visit(file, el.children)
        }
        if ('children' in node && node.type !== NodeTypes.ELEMENT && Array.isArray(node.children)) visit(file, node.children as TemplateChildNode[])
      }
    }
    for (const [file, source] of files(/\.vue$/)) {
      const template = /<template>([\s\S]*)<\/template>\s*(<style|$)/.exec(source)?.[1] ?? ''
      visit(file.replace(/^.*\/src\/renderer\/src\//, ''), parse(template).children)
    }
    expect(found).toEqual([])
  })
})
