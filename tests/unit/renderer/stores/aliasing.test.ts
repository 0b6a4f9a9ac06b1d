/**
 * Hazards in the aliasing view: the store that opens a hazard on its frame, and the view and the inspector's
 * hazards list that lead there. The frame is the fake host's: heap 50 with A, B, C and one access-inactive hazard
 * (tests/unit/renderer/fakeHost.ts, placementsAnswer).
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Component } from 'vue'
import type { HazardEntry } from '../../../../src/shared/ipc'
import { KiB } from '../../../../src/shared/units'
import { setApi } from '../../../../src/renderer/src/api'
import FrameInspector from '../../../../src/renderer/src/components/inspector/FrameInspector.vue'
import { createAppI18n } from '../../../../src/renderer/src/i18n'
import { useAliasingStore } from '../../../../src/renderer/src/stores/aliasing'
import { useInspectorStore } from '../../../../src/renderer/src/stores/inspector'
import { useRunsStore } from '../../../../src/renderer/src/stores/runs'
import { useTimelineStore } from '../../../../src/renderer/src/stores/timeline'
import { useUiStore } from '../../../../src/renderer/src/stores/ui'
import AliasingView from '../../../../src/renderer/src/views/AliasingView.vue'
import { FakeHost, summary } from '../fakeHost'
import { layOutAsAWindow } from '../layout'

let host: FakeHost
let pinia: Pinia

async function settle(): Promise<void> {
  for (let i = 0; i < 8; i++) {
    await flushPromises()
    await new Promise((resolve) => setTimeout(resolve, 0))
  }
}

function mountView(view: Component, language: 'en' | 'zh-CN' = 'en'): VueWrapper {
  return mount(view, { global: { plugins: [pinia, createAppI18n(language)] }, attachTo: document.body })
}

layOutAsAWindow()

beforeEach(() => {
  pinia = createPinia()
  setActivePinia(pinia)
  host = new FakeHost()
  setApi(host)
  document.body.innerHTML = ''
})

/** The fake frame's hazard as the hazards list has it. */
const entry: HazardEntry = {
  frame: 45,
  frameNumber: 46,
  rule: 'access-inactive',
  severity: 'hazard',
  resources: [51, 52],
  heap: 50,
  range: [64 * KiB, 128 * KiB],
  message: 'texture 51 read while inactive: 52 was activated on the same bytes at frame 46',
}

describe('aliasing store and view, a hazard opened', () => {
  it('asks for no render-graph executions of a run without transients, and shows its application heaps', async () => {
    host.outcomes.push({ ok: true, summary: summary('run-1', 100, { backend: 'vulkan', capabilities: { whatIf: true } }) })
    await useRunsStore().init()
    await settle()
    const aliasing = useAliasingStore()
    const asked: string[] = []
    const transients = host.transients
    host.transients = async (q) => (asked.push(`${q.frame}`), transients(q))
    aliasing.setActive(true)
    await settle()
    expect(asked).toEqual([])
    expect([aliasing.hasGraph, aliasing.shown, aliasing.placedCount]).toEqual([false, 'placed', 3])
  })

  it('goes to the hazard’s frame in the aliasing view, the application heaps shown and the hazard in focus', async () => {
    await useRunsStore().init()
    await settle()
    const aliasing = useAliasingStore()
    const timeline = useTimelineStore()
    const ui = useUiStore()
    aliasing.openHazard(entry)
    expect(timeline.cursor).toBe(45)
    expect(ui.view).toBe('aliasing')
    aliasing.setActive(true)
    await settle()
    expect(aliasing.placements?.frame).toBe(45)
    expect(aliasing.shown).toBe('placed')
    expect(aliasing.placedCount).toBe(3)
    expect(aliasing.shownHeaps).toEqual([0])
    // a heap chosen by its id; one the frame does not have falls back to all of them
    aliasing.showHeap(50)
    expect(aliasing.shownHeaps).toEqual([0])
    aliasing.showHeap(99)
    expect(aliasing.shownHeaps).toEqual([0])
    aliasing.showHeap(null)
    expect(aliasing.focusedHazard).toBe(0)
    // another frame: the focus stays, outlining nothing there
    timeline.setCursor(12)
    await settle()
    expect(aliasing.placements?.frame).toBe(12)
    expect(aliasing.focusedHazard).toBe(-1)
    aliasing.focusHazard(0)
    expect(aliasing.focus?.frame).toBe(12)
    expect(aliasing.focusedHazard).toBe(0)
    aliasing.clearFocus()
    expect(aliasing.focusedHazard).toBe(-1)
    // the graph's tab brings the transients back
    aliasing.select(0)
    expect(aliasing.shown).toBe('graph')
  })

  it('shows the frame’s heaps, the hazard in focus beside them with its resources and bytes', async () => {
    await useRunsStore().init()
    await settle()
    useAliasingStore().openHazard(entry)
    const wrapper = mountView(AliasingView)
    await settle()
    const view = wrapper.get('[data-testid=aliasing-view]')
    expect(view.attributes('data-section')).toBe('placed')
    expect(wrapper.get('[data-testid=placed-resources]').text()).toBe('3')
    expect(wrapper.get('[data-testid=placed-hazard-count]').text()).toBe('1')
    const card = wrapper.get('[data-testid=placed-hazard]')
    expect(card.attributes('data-focused')).toBe('true')
    expect(card.text()).toContain('access-inactive')
    expect(card.text()).toContain('step 4')
    expect(card.text()).toContain('A ↔ B')
    // [64 KiB, 128 KiB) of heap "Aliased"
    expect(card.text()).toContain('Aliased · 0x00010000–0x00020000 (64.0 KiB)')
    expect(wrapper.get('[data-testid=placed-table]').attributes('data-rows')).toBe('3')
    expect(wrapper.get('[data-testid=placement-canvas]').attributes('data-focused')).toBe('0')
    // the graph's tab, then back to the heaps
    await wrapper.findAll('.tabs button')[0].trigger('click')
    expect(view.attributes('data-section')).toBe('graph')
    expect(wrapper.find('[data-testid=transient-table]').exists()).toBe(true)
    await wrapper.get('[data-testid=aliasing-placed-tab]').trigger('click')
    expect(view.attributes('data-section')).toBe('placed')
    wrapper.unmount()
  })

  it('speaks Simplified Chinese', async () => {
    await useRunsStore().init()
    await settle()
    useAliasingStore().openHazard(entry)
    const wrapper = mountView(AliasingView, 'zh-CN')
    await settle()
    expect(wrapper.get('[data-testid=aliasing-placed-tab]').text()).toContain('应用程序堆')
    expect(wrapper.get('[data-testid=placed-hazard]').text()).toContain('第 4 步')
    wrapper.unmount()
  })

  it('opens a hazard of the inspector’s list in the aliasing view, and a warning on the block maps', async () => {
    host.outcomes.push({ ok: true, summary: summary('run-1', 100, { checks: { aliasing: 'simple', hazards: 1, hazardRules: { 'access-inactive': 1 }, warnings: { 'bind-misaligned': 1 } } }) })
    const warning: HazardEntry = { ...entry, frame: 20, frameNumber: 21, rule: 'bind-misaligned', severity: 'warning', resources: [1003], message: 'buffer 1003 bound misaligned' }
    host.hazards = async (query) => ({ runId: query.runId, total: 2, offset: 0, entries: [warning, entry], aliasing: 'simple', hazardRules: { 'access-inactive': 1 }, warnings: { 'bind-misaligned': 1 } })
    await useRunsStore().init()
    await settle()
    const inspector = useInspectorStore()
    const ui = useUiStore()
    ui.show('timeline')
    const wrapper = mountView(FrameInspector)
    await settle()
    await wrapper.get('[data-testid=tab-hazards]').trigger('click')
    await settle()
    const rows = wrapper.get('[data-testid=hazard-table]').findAll('[data-testid=table-row]')
    expect(rows).toHaveLength(2)
    // the warning: the block maps at its frame, no view change
    await rows[0].trigger('click')
    await settle()
    expect([ui.view, inspector.tab, useTimelineStore().cursor]).toEqual(['timeline', 'pools', 20])
    expect(useAliasingStore().focus).toBeNull()
    // the hazard: the aliasing view at its frame, the inspector behind it on the same frame
    await wrapper.get('[data-testid=tab-hazards]').trigger('click')
    await settle()
    await wrapper.get('[data-testid=hazard-table]').findAll('[data-testid=table-row]')[1].trigger('click')
    await settle()
    expect([ui.view, useTimelineStore().cursor, inspector.selectedId]).toEqual(['aliasing', 45, 51])
    expect(useAliasingStore().focus?.rule).toBe('access-inactive')
    wrapper.unmount()
  })
})

async function opened() {
  const runs = useRunsStore()
  const timeline = useTimelineStore()
  const inspector = useInspectorStore()
  await runs.init()
  await settle()
  return { runs, timeline, inspector }
}

describe('aliasing store', () => {
  it('loads the cursor frame once shown, and knows which resources share bytes', async () => {
    const { timeline } = await opened()
    const aliasing = useAliasingStore()
    expect(aliasing.answer).toBeNull()
    aliasing.setActive(true)
    await settle()
    expect(aliasing.answer?.frame).toBe(70)
    expect(aliasing.aliasesOf(0)).toEqual([1])
    expect(aliasing.aliasesOf(1)).toEqual([0])
    expect(aliasing.aliasesOf(2)).toEqual([])
    timeline.setCursor(12)
    await settle()
    expect(aliasing.answer?.frame).toBe(12)
  })
})
