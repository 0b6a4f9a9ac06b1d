import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { defineComponent, h, watch, type Component } from 'vue'
import type { EChartsOption } from 'echarts'
import { setApi } from '../../../../src/renderer/src/api'
import App from '../../../../src/renderer/src/App.vue'
import { createAppI18n } from '../../../../src/renderer/src/i18n'
import { useCompareStore } from '../../../../src/renderer/src/stores/compare'
import { useRunsStore } from '../../../../src/renderer/src/stores/runs'
import { useWhatIfStore } from '../../../../src/renderer/src/stores/whatif'
import AliasingView from '../../../../src/renderer/src/views/AliasingView.vue'
import CompareView from '../../../../src/renderer/src/views/CompareView.vue'
import StartView from '../../../../src/renderer/src/views/StartView.vue'
import TimelineView from '../../../../src/renderer/src/views/TimelineView.vue'
import WhatIfView from '../../../../src/renderer/src/views/WhatIfView.vue'
import { FakeHost } from '../fakeHost'
import { layOutAsAWindow } from '../layout'

/** The charts stand in as their options: ECharts has no canvas to draw on here. */
const options: EChartsOption[] = []
const LaneChart = defineComponent({
  props: { option: { type: Object, required: true } },
  setup(props) {
    watch(
      () => props.option,
      (option) => options.push(option as EChartsOption),
      { immediate: true },
    )
    return () => h('div', { class: 'lane-chart-stub' })
  },
})

let host: FakeHost
let pinia: Pinia

async function settle(): Promise<void> {
  for (let i = 0; i < 8; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

function mountView(view: Component, language: 'en' | 'zh-CN' = 'en'): VueWrapper {
  const i18n = createAppI18n(language)
  return mount(view, { global: { plugins: [pinia, i18n], stubs: { LaneChart } }, attachTo: document.body })
}

layOutAsAWindow()

beforeEach(() => {
  pinia = createPinia()
  setActivePinia(pinia)
  host = new FakeHost()
  setApi(host)
  options.length = 0
  document.body.innerHTML = ''
})

describe('start view', () => {
  it('lists the shipped demos and the formats, and opens a demo', async () => {
    host.info = { ...host.info, openAtStart: undefined }
    await useRunsStore().init()
    const wrapper = mountView(StartView)
    expect(wrapper.get('[data-testid=demo-entry]').text()).toContain('demo.hscap.gz')
    expect(wrapper.get('[data-testid=demo-entry]').text()).toContain('the demo')
    expect(wrapper.text()).toContain('HeapScope capture')
    await wrapper.get('[data-testid=demo-entry]').trigger('click')
    await settle()
    expect(host.calls).toContain('open demo')
    expect(useRunsStore().current?.runId).toBe('run-1')
  })

  it('tells recent files of one name apart by the end of their folder, in its list and in the toolbar’s', async () => {
    host.info = {
      ...host.info,
      openAtStart: undefined,
      captures: [{ fileId: 'demo', name: 'demo.hscap.gz', origin: 'demo', description: 'the demo', folder: '/opt/heapscope/demo' }],
    }
    const recent = (fileId: string, name: string, folder: string) => ({ fileId, name, origin: 'recent' as const, description: folder, folder })
    host.recentFiles = async () => [
      recent('f-1', 'city.hscap', '/builds/monday'),
      recent('f-2', 'town.hscap', '/builds/monday'),
      recent('f-3', 'city.hscap', '/builds/tuesday'),
      recent('f-4', 'demo.hscap.gz', '/home/me/demo'),
    ]
    await useRunsStore().init()
    const start = mountView(StartView)
    expect(start.findAll('[data-testid=recent-entry]').map((a) => a.text())).toEqual([
      'city.hscap — monday',
      'town.hscap',
      'city.hscap — tuesday',
      'demo.hscap.gz — me/demo',
    ])
    start.unmount()
    const app = mountView(App)
    await settle()
    expect(app.findAll('[data-testid=capture-list] option').map((o) => o.text())).toEqual([
      'Recent…',
      'demo.hscap.gz — heapscope/demo (demo)',
      'city.hscap — monday (recent)',
      'town.hscap (recent)',
      'city.hscap — tuesday (recent)',
      'demo.hscap.gz — me/demo (recent)',
    ])
  })
})

describe('timeline view', () => {
  it('shows each lane with its figures at the cursor, and the residency events as markers', async () => {
    await useRunsStore().init()
    await settle()
    const wrapper = mountView(TimelineView)
    await settle()
    const headers = wrapper.findAll('.lane-header').map((h) => h.text())
    // DEFAULT at the cursor (frame index 70): 100 MiB + 70 KiB held, 80 MiB requested
    expect(headers[0]).toContain('DEFAULT')
    expect(headers[0]).toContain('100 MiB')
    expect(headers[0]).toContain('80.0 MiB')
    expect(headers[3]).toContain('3 evictions')
    expect(headers[3]).toContain('2 made resident')
    expect(wrapper.get('[data-testid=residency-lane]').attributes('data-evictions')).toBe('3')
    // the residency lane's drawing: the make-resident triangles, then the eviction ones, each kind one path
    type Drawing = { id: string; renderItem?: (p: unknown) => { children: { type: string; shape: { pathData?: string } }[] } }
    const drawings = options.map((o) => (o.series as Drawing[]).find((s) => s.id === 'drawing')!)
    const paths = drawings
      .map((d) => d.renderItem!({ coordSys: { x: 0, y: 0, width: 1000, height: 100 } }).children.filter((c) => c.type === 'path'))
      .filter((p) => p.length === 2)
      .pop()!
    expect(paths.map((p) => p.shape.pathData!.split('M').length - 1)).toEqual([2, 3])
    // the placement legend names the layers the lanes stack
    expect(wrapper.get('[data-testid=placement-legend]').text()).toContain('TextureReadOnlyPool')
    expect(wrapper.get('[data-testid=placement-legend]').text()).toContain('UploadBigBlock')
    wrapper.unmount()
  })

  it('lists the live resources of the cursor frame, biggest first, and explains the one clicked', async () => {
    await useRunsStore().init()
    await settle()
    const wrapper = mountView(TimelineView)
    await settle()
    const rows = wrapper.findAll('[data-testid=table-row]')
    expect(rows.length).toBeGreaterThan(10)
    // 7 MiB rows first (i mod 7 = 6), ties by id: Res_6 leads
    expect(rows[0].text()).toContain('Res_6')
    expect(rows[0].text()).toContain('7.00 MiB')
    await rows[0].trigger('click')
    await settle()
    expect(wrapper.get('[data-testid=route-steps]').text()).toContain('size 1 MiB → TextureReadOnlyPool')
    await wrapper.get('[data-testid=tab-pools]').trigger('click')
    await settle()
    expect(wrapper.get('[data-testid=pool-maps]').attributes('data-pools')).toBe('1')
    wrapper.unmount()
  })
})

describe('aliasing view', () => {
  it('shows the execution’s figures and lists its resources', async () => {
    await useRunsStore().init()
    await settle()
    const wrapper = mountView(AliasingView)
    await settle()
    expect(wrapper.get('[data-testid=aliasing-resources]').text()).toBe('3')
    // 2 hits of 3 lookups
    expect(wrapper.get('[data-testid=aliasing-cache]').text()).toBe('66.7%')
    expect(wrapper.get('[data-testid=transient-table]').attributes('data-rows')).toBe('3')
    wrapper.unmount()
  })
})

describe('what-if and compare views', () => {
  it('shows every config key with its values, and an edit the CLI would refuse', async () => {
    await useRunsStore().init()
    await settle()
    const wrapper = mountView(WhatIfView)
    await settle()
    const rows = wrapper.findAll('[data-testid=config-table] tbody tr:not(.group)')
    expect(rows).toHaveLength(3)
    // resourceHeapTier: default 2, capture 1, run 1
    expect(rows[2].text()).toMatch(/resourceHeapTier.*2\s*1\s*1/)
    await wrapper.get('[data-testid="edit-bufferPool.size"]').setValue('lots')
    expect(wrapper.text()).toContain('is not a number')
    expect(wrapper.get('[data-testid=rerun]').attributes('disabled')).toBeDefined()
    await wrapper.get('[data-testid="edit-bufferPool.size"]').setValue('8MiB')
    expect(wrapper.get('[data-testid=whatif-changes]').text()).toBe('1 keys changed')
    wrapper.unmount()
  })

  it('shows both runs side by side, the report deltas and the resource diff', async () => {
    await useRunsStore().init()
    await settle()
    const whatif = useWhatIfStore()
    await whatif.load()
    whatif.setEdit('bufferPool.size', '8MiB')
    await whatif.rerun()
    const wrapper = mountView(CompareView)
    await settle()
    expect(wrapper.get('[data-testid=compare-run-a]').text()).toContain('run-1.hscap')
    expect(wrapper.get('[data-testid=compare-run-b]').text()).toContain('run-B.hscap')
    expect(wrapper.get('[data-testid=compare-run-b]').text()).toContain('bufferPool.size=8MiB')
    expect(wrapper.find('[data-testid=compare-chart-a]').exists()).toBe(true)
    expect(wrapper.find('[data-testid=compare-chart-b]').exists()).toBe(true)
    expect(useCompareStore().lanes).not.toBeNull()
    const summary = wrapper.get('[data-testid=compare-summary]').text()
    expect(summary).toContain('Peak, all heaps')
    expect(summary).toContain('1.00 GiB')
    await wrapper.get('[data-testid=compare-tab-diff]').trigger('click')
    await settle()
    expect(wrapper.get('[data-testid=diff-onlyA]').text()).toContain('1')
    expect(wrapper.get('[data-testid=diff-table]').attributes('data-rows')).toBe('2')
    wrapper.unmount()
  })
})

describe('the window', () => {
  it('speaks Simplified Chinese when the settings say so', async () => {
    host.settingsValue = { ...host.settingsValue, language: 'zh-CN' }
    const wrapper = mountView(App)
    await settle()
    expect(wrapper.get('[data-testid=view-timeline]').text()).toBe('时间线')
    expect(wrapper.get('[data-testid=open-capture]').text()).toBe('打开捕获…')
    expect(wrapper.get('[data-testid=cursor-frame]').text()).toBe('帧 71')
    // the run header names the backend that made the run, in the user's language
    expect(wrapper.get('[data-testid=run-backend]').text()).toBe('heapscope-capture · D3D12 模型（UE 5.8）')
    expect(document.documentElement.lang).toBe('zh-CN')
    wrapper.unmount()
  })

  it('follows the menu: theme, language, zoom and the formats dialog', async () => {
    const wrapper = mountView(App)
    await settle()
    expect(document.documentElement.dataset.theme).toBe('dark')
    host.sendMenu('theme:light')
    host.sendMenu('language:zh-CN')
    await settle()
    expect(document.documentElement.dataset.theme).toBe('light')
    expect(wrapper.get('[data-testid=view-aliasing]').text()).toBe('内存别名')
    host.sendMenu('help:format')
    await settle()
    expect(wrapper.get('[data-testid=dialog]').text()).toContain('HeapScope capture')
    const before = host.seriesQueries.length
    host.sendMenu('zoom:in')
    await settle()
    expect(host.seriesQueries.length).toBe(before + 1)
    expect(host.saved).toEqual([{ theme: 'light' }, { language: 'zh-CN' }])
    wrapper.unmount()
  })

  it('plays and steps from the keyboard', async () => {
    const wrapper = mountView(App)
    await settle()
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }))
    await settle()
    expect(wrapper.get('[data-testid=cursor-frame]').text()).toBe('frame 72')
    window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ' }))
    await settle()
    expect(host.playbacks[0]).toMatchObject({ from: 71, to: 100 })
    window.dispatchEvent(new KeyboardEvent('keydown', { key: ' ' }))
    await settle()
    expect(host.stopped).toEqual([host.playbacks[0].playbackId])
    wrapper.unmount()
  })
})
