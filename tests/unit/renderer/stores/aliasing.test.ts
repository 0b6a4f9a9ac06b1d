/**
 * Hazards in the aliasing view: the geometry of a frame's application heaps (rectangles, active bars, marks, shared
 * bytes, the hazard's box, folded unused bytes), the store that opens a hazard on its frame, and the view and the
 * inspector's hazards list that lead there. The frame is the fake host's: heap 50 with A, B, C and one
 * access-inactive hazard (tests/unit/renderer/fakeHost.ts, placementsAnswer).
 */
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Component } from 'vue'
import type { HazardEntry } from '../../../../src/shared/ipc'
import { KiB, MiB } from '../../../../src/shared/units'
import { setApi } from '../../../../src/renderer/src/api'
import FrameInspector from '../../../../src/renderer/src/components/inspector/FrameInspector.vue'
import { createAppI18n } from '../../../../src/renderer/src/i18n'
import { busiestHeaps, byteSegments, byteY, hazardAt, layoutPlacements, placedAliases, placedAt } from '../../../../src/renderer/src/lib/placementLayout'
import { useAliasingStore } from '../../../../src/renderer/src/stores/aliasing'
import { useInspectorStore } from '../../../../src/renderer/src/stores/inspector'
import { useRunsStore } from '../../../../src/renderer/src/stores/runs'
import { useTimelineStore } from '../../../../src/renderer/src/stores/timeline'
import { useUiStore } from '../../../../src/renderer/src/stores/ui'
import AliasingView from '../../../../src/renderer/src/views/AliasingView.vue'
import { FakeHost, placementsAnswer, summary } from '../fakeHost'
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

describe('placement layout', () => {
  // 600 px of plot for 6 steps: 100 px a step from x = 100; the panel from y = 4 + 20 (header) = 24, 300 − 20
  // (bottom) − 4 − 20 (header) = 256 px high for 256 KiB: 1 px a KiB
  const a = placementsAnswer('run-1', 45)
  const l = layoutPlacements(a, { width: 700, height: 300, left: 100, bottom: 20, gap: 10, header: 20, right: 0 })
  const box = (b: { x: number; y: number; w: number; h: number }) => [b.x, b.y, b.w, b.h]

  it('draws each resource over its bytes for the steps it was placed, and its active spans inside', () => {
    expect(l.panels.map((p) => [p.x, p.y, p.w, p.h])).toEqual([[100, 24, 600, 256]])
    // A [0, 128 KiB) steps [0, 6); B [64, 192 KiB) steps [0, 5), released before the submit; C [192, 256 KiB)
    expect(l.rects.map(box)).toEqual([
      [100, 24, 600, 128],
      [100, 88, 500, 128],
      [100, 216, 600, 64],
    ])
    // A active [0, 2), B active [2, 5)
    expect(l.active.map((r) => [r.index, ...box(r)])).toEqual([
      [0, 100, 24, 200, 128],
      [1, 300, 88, 300, 128],
    ])
    // A and B share [64, 128 KiB) over the steps both were placed, [0, 5)
    expect(l.bands.map(box)).toEqual([[100, 88, 500, 64]])
    expect(l.submits).toEqual([650])
  })

  it('puts each mark at its step, in the bytes its resource shares with none other', () => {
    // A's own bytes [0, 64 KiB): middle 32 KiB, y 56; B's [128, 192 KiB): middle 160 KiB, y 184; a step's centre
    // is 100 + (s + 0.5) × 100
    expect(l.accesses.map((m) => [m.step, m.index, m.x, m.y, m.kind])).toEqual([
      [1, 0, 250, 56, 1],
      [3, 1, 450, 184, 1],
      [4, 0, 550, 56, 0],
    ])
    // step 0 activates A; step 2 activates B (kind 1) and ends A (kind 0)
    expect(l.barriers.map((m) => [m.step, m.index, m.x, m.y, m.kind])).toEqual([
      [0, 0, 150, 56, 1],
      [2, 1, 350, 184, 1],
      [2, 0, 350, 56, 0],
    ])
  })

  it('boxes the hazard over its bytes and its resources’ steps, its step line at the read', () => {
    // [64, 128 KiB): y 88, 64 px; A and B together span x 100 to 700
    expect(l.hazards.map((h) => [h.hazard, h.stepX, ...box(h)])).toEqual([[0, 550, 100, 88, 600, 64]])
    expect(hazardAt(l, 550, 100)).toBe(0)
    expect(hazardAt(l, 550, 200)).toBe(-1)
  })

  it('finds the resource under the mouse: the one active there where two are drawn over each other', () => {
    // y 120 is in A's and B's bytes; A is active left of x 300, B from 300 to 600; past 600 only A is placed
    expect(placedAt(l, 250, 120)).toEqual({ heap: 0, index: 0 })
    expect(placedAt(l, 400, 120)).toEqual({ heap: 0, index: 1 })
    expect(placedAt(l, 650, 120)).toEqual({ heap: 0, index: 0 })
    expect(placedAt(l, 400, 250)).toEqual({ heap: 0, index: 2 })
    expect(placedAt(l, 50, 50)).toBeNull()
    expect(placedAliases(a, 0, 0)).toEqual([1])
    expect(placedAliases(a, 0, 2)).toEqual([])
  })

  it('with more heaps than it stacks, draws those with a hazard first, then the fullest', () => {
    // heap 0 has the hazard and 3 resources; six more: ids 60 to 65 with 0, 5, 1, 5, 2 and 4 resources
    const base = placementsAnswer('run-1', 45)
    const counts = [0, 5, 1, 5, 2, 4]
    const heaps = [
      base.heaps[0],
      ...counts.map((n, k) => ({
        ...base.heaps[0],
        id: 60 + k,
        resources: { ...base.heaps[0].resources, id: new Float64Array(n), name: Array.from({ length: n }, () => '') },
      })),
    ]
    const many = { ...base, heaps }
    // the hazard's heap (index 0), then 5, 5 (ids 61 and 63: indices 2 and 4), then 4 (id 65, index 6); in index order
    expect(busiestHeaps(many)).toEqual([0, 2, 4, 6])
    // by bytes before counts: one 64 MiB resource outweighs four of 256 KiB
    const sized = (n: number, size: number) => ({
      ...base.heaps[0],
      id: 70 + n,
      resources: { ...base.heaps[0].resources, id: new Float64Array(n), size: new Float64Array(n).fill(size), name: Array.from({ length: n }, () => '') },
    })
    const mixed = { ...base, hazards: [], heaps: [sized(4, 256 << 10), sized(1, 64 << 20), sized(3, 256 << 10), sized(2, 32 << 20), sized(5, 1 << 10)] }
    expect(busiestHeaps(mixed, -1, 2)).toEqual([1, 3])
    const drawn = layoutPlacements(many, { width: 700, height: 900, left: 100, bottom: 20, gap: 10, header: 20, heaps: [0, 2] })
    expect(drawn.panels.map((p) => p.heap)).toEqual([0, 2])
    // heap 0's hazard is drawn; heap 1 is not, so nothing of it is
    expect(drawn.hazards).toHaveLength(1)
    expect(drawn.rectOf[1]).toEqual([])
  })

  it('fitted, folds the unused bytes between and after the used runs', () => {
    // used: [0, 4 MiB) and [32, 34 MiB) of 64 MiB; 6 MiB used, so gaps of 0.6 MiB or more fold to 18 px. 400 px:
    // 2 folds leave 364; each run 26 px plus its share of the 312 left: 4/6 → 234 px, 2/6 → 130 px
    const p = byteSegments(
      [
        [0, 4 * MiB],
        [32 * MiB, 34 * MiB],
      ],
      64 * MiB,
      0,
      400,
      true,
    )
    expect(p.segments.map((s) => [s.from / MiB, s.to / MiB, s.y, s.h])).toEqual([
      [0, 4, 0, 234],
      [32, 34, 252, 130],
    ])
    expect(p.breaks.map((s) => [s.from / MiB, s.to / MiB, s.y, s.h])).toEqual([
      [4, 32, 234, 18],
      [34, 64, 382, 18],
    ])
    // 33 MiB: half way down the second run, 252 + 65
    expect(byteY({ ...p, y: 0, h: 400 }, 33 * MiB)).toBe(317)
    // not fitted: the whole heap to scale
    expect(byteSegments([[0, 4 * MiB]], 64 * MiB, 10, 400, false)).toEqual({ segments: [{ from: 0, to: 64 * MiB, y: 10, h: 400 }], breaks: [] })
  })
})

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
