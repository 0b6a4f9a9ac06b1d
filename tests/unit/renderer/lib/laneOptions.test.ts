import { describe, expect, it } from 'vitest'
import { MiB } from '../../../../src/shared/units'
import {
  budgetVisible,
  checksLaneOption,
  countAxis,
  edgeRuns,
  heapLaneOption,
  markerSize,
  mix,
  residencyMarkers,
  residencyLaneOption,
  shapeElements,
  stackedAreas,
  withMarkerRoom,
} from '../../../../src/renderer/src/lib/laneOptions'
import { buildLanes } from '../../../../src/renderer/src/lib/lanes'
import { FakeHost, summary } from '../fakeHost'

describe('lane options', () => {
  it('sizes markers by the square root of bytes, 5 to 18 px', () => {
    expect(markerSize(0, 10)).toBe(5)
    expect(markerSize(10, 10)).toBe(18)
    // a quarter of the largest: 5 + 13 × √0.25 = 11.5
    expect(markerSize(2.5, 10)).toBe(11.5)
  })

  it('stacks layers as running totals drawn top first, opaque colours that look translucent', () => {
    const x = Float64Array.of(0, 1, 2)
    const shapes = stackedAreas(
      x,
      [
        { key: 'Committed', values: Float64Array.of(1, 2, NaN) },
        { key: 'SharedBufferPool', values: Float64Array.of(10, 20, NaN) },
      ],
      { background: '#000000' },
    ) as { kind: 'area'; top: Float64Array; fill: string }[]
    // the top layer's edge is 1 + 10 and 2 + 20; where no layer has a value, a gap
    expect(shapes.map((s) => Array.from(s.top))).toEqual([
      [11, 22, NaN],
      [1, 2, NaN],
    ])
    // #9b7bf0 (Committed) at 85% over black: 155 × 0.85 = 131.75 → 0x84, 123 × 0.85 = 104.55 → 0x69, 240 × 0.85 = 204 → 0xcc
    expect(shapes[1].fill).toBe('#8469cc')
    expect(mix('#ffffff', '#000000', 0.5)).toBe('#808080')
  })

  it('draws an edge with the ends of its level runs only, split at gaps, with risers for steps', () => {
    const x = Float64Array.of(0, 1, 2, 3, 4, 5, 6)
    const y = Float64Array.of(5, 5, 5, 7, 7, NaN, 9)
    const id = (v: number) => v
    // 5 at 0–2 (ends 0 and 2), 7 at 3–4, a gap, then 9 alone
    expect(edgeRuns(x, y, id, id)).toEqual([
      [
        [0, 5],
        [2, 5],
        [3, 7],
        [4, 7],
      ],
      [[6, 9]],
    ])
    // as steps: 5 holds until frame 3, then rises to 7
    expect(edgeRuns(x, y, id, id, true)[0]).toEqual([
      [0, 5],
      [2, 5],
      [3, 5],
      [3, 7],
      [4, 7],
    ])
  })

  it('turns shapes into pixels: areas down to zero, bands between two edges, spans over the height', () => {
    const box = { x: 10, y: 0, width: 100, height: 50 }
    const view = { from: 0, to: 10 }
    // y from 0 to 100 over 50 px: 2 units a pixel, y = 0 at pixel 50
    const elements = shapeElements(
      [
        { kind: 'area', x: Float64Array.of(0, 10), top: Float64Array.of(50, 50), fill: '#111111' },
        { kind: 'band', x: Float64Array.of(0, 10), top: Float64Array.of(80, 80), bottom: Float64Array.of(60, 60), fill: '#222222' },
        { kind: 'span', from: 5, to: 20, fill: '#333333' },
      ],
      box,
      view,
      0,
      100,
    ) as { type: string; shape: { points?: number[][]; x?: number; width?: number } }[]
    expect(elements.map((e) => e.type)).toEqual(['polygon', 'polygon', 'rect'])
    expect(elements[0].shape.points).toEqual([
      [10, 25],
      [110, 25],
      [110, 50],
      [10, 50],
    ])
    // 80 → 50 × (1 − 0.8) = 10 px, 60 → 20 px (to a micropixel: floating point)
    expect(elements[1].shape.points!.flat().map((v) => Math.round(v * 1e6) / 1e6)).toEqual([10, 10, 110, 10, 110, 20, 10, 20])
    // frames 5 to 20 clipped to the plot: x from 60 to 110
    expect([elements[2].shape.x, elements[2].shape.width]).toEqual([60, 50])
  })

  it('draws areas, bands and lines as steps: a value holds until the next frame’s', () => {
    const box = { x: 0, y: 0, width: 50, height: 100 }
    const view = { from: 0, to: 5 }
    // a resource of 50 made in frame 3: 0 at frames 0–2, 50 from frame 3; 10 px a frame, y = 50 at pixel 50
    const x = Float64Array.of(0, 1, 2, 3, 4)
    const top = Float64Array.of(0, 0, 0, 50, 50)
    const [area, line] = shapeElements(
      [
        { kind: 'area', x, top, fill: '#111111' },
        { kind: 'line', x, y: top, stroke: { color: '#222222', width: 1 } },
      ],
      box,
      view,
      0,
      100,
    ) as { shape: { points: number[][] } }[]
    // level at 0 to frame 3 (pixel 30), a riser there, 50 after: no slope between frames 2 and 3
    expect(area.shape.points).toEqual([
      [0, 100],
      [20, 100],
      [30, 100],
      [30, 50],
      [40, 50],
      [40, 100],
      [0, 100],
    ])
    expect(line.shape.points).toEqual(area.shape.points.slice(0, 5))
  })

  it('draws markers on the same pixel once, the largest, and every marker on a pixel of its own', () => {
    const box = { x: 0, y: 0, width: 100, height: 50 }
    // 1000 frames over 100 px: frames 10 to 14 all land on pixel 1; frame 500 on pixel 50; y 0 → pixel 50
    const x = [10, 11, 12, 13, 14, 500]
    const markers = shapeElements(
      [{ kind: 'markers', x, y: x.map(() => 0), size: [6, 10, 8, 6, 6, 4], down: true, fill: '#ff0000', stroke: '#000000' }],
      box,
      { from: 0, to: 1000 },
      0,
      100,
    ) as { shape: { pathData: string } }[]
    expect(markers).toHaveLength(1)
    // down triangles on the axis (the plot's bottom, pixel 50) would hang out of it: lifted in, their tips on it;
    // pixel 1 keeps the 10 px one (h 5), pixel 50 its own 4 px one
    expect(markers[0].shape.pathData).toBe('M-4.0 40.0L6.0 40.0L1.0 50.0ZM48.0 46.0L52.0 46.0L50.0 50.0Z')
  })

  it('stands make-resident triangles on the curve and hangs evictions under it, inside the plot', () => {
    const box = { x: 0, y: 10, width: 100, height: 50 }
    const draw = (y: number, down: boolean) =>
      (shapeElements([{ kind: 'markers', x: [50], y: [y], size: [10], down, fill: '#ff0000', stroke: '#000000' }], box, { from: 0, to: 100 }, 0, 100) as {
        shape: { pathData: string }
      }[])[0].shape.pathData
    // y 50 of 0..100 → pixel 35: an up triangle's base there, its tip 10 px above; a down one's tip 10 px below
    expect(draw(50, false)).toBe('M45.0 35.0L55.0 35.0L50.0 25.0Z')
    expect(draw(50, true)).toBe('M45.0 35.0L55.0 35.0L50.0 45.0Z')
    // y 100, the plot's top (pixel 10): the up triangle moved down into the plot, the down one already in it
    expect(draw(100, false)).toBe('M45.0 20.0L55.0 20.0L50.0 10.0Z')
    expect(draw(100, true)).toBe('M45.0 10.0L55.0 10.0L50.0 20.0Z')
    // far above the axis (a curve past the lane's top) both are still drawn at its top
    expect(draw(400, true)).toBe('M45.0 10.0L55.0 10.0L50.0 20.0Z')
  })

  it('leaves room over a residency curve at its peak for the make-resident markers', async () => {
    // a 100 px lane: 86 px of plot; an 18 px marker at 68 needs 18 px over it, a 5 px one at 40 fits
    expect(withMarkerRoom(68, 100, [68, 40], [18, 5])).toBe(86)
    expect(withMarkerRoom(68, 100, [40], [5])).toBe(68)
    // a marker under the peak needs room only over itself: at 64 of 68, 9 px tall → 64 × 86 / 77, about 71.5
    expect(withMarkerRoom(68, 100, [64], [9])).toBeCloseTo((64 * 86) / 77, 9)
    // too short a plot keeps its top
    expect(withMarkerRoom(68, 60, [68], [18])).toBe(68)
    const host = new FakeHost()
    const run = summary('r')
    const lanes = buildLanes(await host.series({ runId: 'r', series: run.series.map((s) => s.name), from: 0, to: 100, resolution: 100 }), 'heapBytes', run)
    const events = await host.residencyEvents({ runId: 'r', from: 0, to: 100, limit: 10 })
    const ctx = {
      theme: (await import('../../../../src/renderer/src/lib/palette')).THEMES.dark,
      view: { from: 0, to: 99 },
      height: 120,
      t: (k: string) => k,
      frameNumber: (i: number) => i + 1,
    }
    const r = lanes.residency!
    const top = (markers: ReturnType<typeof residencyMarkers>) => (residencyLaneOption(lanes, r, markers, ctx).yAxis as { max: number }).max
    // the fake run's events lie under its budget, the lane's peak: they need no room
    const under = residencyMarkers(lanes, events, { from: 0, to: 99 }, { evict: 1, make: 0 })
    const none = residencyMarkers(lanes, null, { from: 0, to: 99 }, { evict: 1, make: 0 })
    expect(top(none)).toBeGreaterThanOrEqual(r.max)
    expect(top(under)).toBe(top(none))
    // a resource made resident at the peak, the largest marker (18 px of a 106 px plot): room over the peak
    const atPeak = { ...none, make: [[60, r.max, 12 * MiB]] as [number, number, number][], maxBytes: 12 * MiB }
    expect(top(atPeak)).toBeGreaterThanOrEqual((r.max * 106) / 88)
    expect(top(atPeak)).toBeGreaterThan(top(none))
  })

  it('draws a budget only near the data', () => {
    expect(budgetVisible(100, 250)).toBe(true)
    expect(budgetVisible(100, 251)).toBe(false)
    expect(budgetVisible(0, 10)).toBe(false)
    // 95 over 4 ticks: 23.75 a tick → 50; top 100
    expect(countAxis(95, 4)).toEqual({ max: 100, interval: 50 })
  })

  it('places residency events of the window on the resident curve, and tallies them per bucket', async () => {
    const host = new FakeHost()
    const run = summary('r')
    const lanes = buildLanes(await host.series({ runId: 'r', series: run.series.map((s) => s.name), from: 0, to: 100, resolution: 100 }), 'heapBytes', run)
    const events = await host.residencyEvents({ runId: 'r', from: 0, to: 100, limit: 10 })
    const all = residencyMarkers(lanes, events, { from: 0, to: 99 }, { evict: 1, make: 0 })
    // evictions at frames 10, 41, 42; make-resident at 5 and 60
    expect(all.evict.map((e) => e[0])).toEqual([10, 41, 42])
    expect(all.make.map((e) => e[0])).toEqual([5, 60])
    expect(all.maxBytes).toBe(12 * MiB)
    expect(all.evict[0][1]).toBe(90 * MiB)
    expect(all.perBucket.get(41)).toEqual({ evictions: 1, evictedBytes: 8 * MiB, made: 0, madeBytes: 0 })
    const early = residencyMarkers(lanes, events, { from: 0, to: 30 }, { evict: 1, make: 0 })
    expect([early.evict.length, early.make.length]).toEqual([1, 1])
  })

  it('builds a heap lane: its layers, the waste band and the budget in one drawing, and a tooltip of the frame', async () => {
    const host = new FakeHost()
    const run = summary('r')
    const lanes = buildLanes(await host.series({ runId: 'r', series: run.series.map((s) => s.name), from: 0, to: 100, resolution: 100 }), 'heapBytes', run)
    const dflt = lanes.heaps[0]
    const option = heapLaneOption(dflt, lanes, {
      theme: (await import('../../../../src/renderer/src/lib/palette')).THEMES.dark,
      view: { from: 0, to: 99 },
      height: 150,
      t: (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key),
      frameNumber: (i) => i + 1,
    })
    const series = option.series as { id: string; renderItem?: (p: unknown) => { children: { type: string; shape: { points: number[][] } }[] } | null }[]
    expect(series.map((s) => s.id)).toEqual(['drawing'])
    const drawn = series[0].renderItem!({ coordSys: { x: 0, y: 0, width: 990, height: 100 } })!.children
    // three layers, the waste band and its edge, the requested line, the budget (128 MiB, under 2.5 × the lane's top)
    expect(drawn.map((e) => e.type)).toEqual(['polygon', 'polygon', 'polygon', 'polygon', 'polyline', 'polyline', 'polyline'])
    // the budget is level all along: two points, whatever the frames
    expect(drawn[6].shape.points).toHaveLength(2)
    const formatter = (option.tooltip as { formatter: (p: unknown) => HTMLElement }).formatter
    // the mouse at frame 10.3 (the axis value, with no pane noting the pointer): the nearest frame's bucket, 10
    const tip = formatter([{ axisValue: 10.3 }])
    expect(tip.querySelector('.hs-tip-title')!.textContent).toBe('tip.frame {"n":11}')
    // Committed at frame 10: 4 MiB + 10 KiB = 4.01 MiB
    const committed = [...tip.querySelectorAll('.hs-tip-row')].find((r) => r.textContent?.includes('placement.Committed'))
    expect(committed?.querySelector('.hs-tip-value')?.textContent).toBe('4.01 MiB')
    // with the pane's note of the pointer, the note wins over the axis value the single drawing item snaps to
    const hover = { at: 40.2 }
    const noted = heapLaneOption(dflt, lanes, { theme: (await import('../../../../src/renderer/src/lib/palette')).THEMES.dark, view: { from: 0, to: 99 }, height: 150, t: (k, p) => (p ? `${k} ${JSON.stringify(p)}` : k), frameNumber: (i) => i + 1, hover })
    const tip40 = (noted.tooltip as { formatter: (p: unknown) => HTMLElement }).formatter([{ axisValue: 0 }])
    expect(tip40.querySelector('.hs-tip-title')!.textContent).toBe('tip.frame {"n":41}')
  })

  it("lists in the checks lane's tooltip each rule that found something in the bucket, most first", async () => {
    const n = 2
    const lanes = { x: Float64Array.of(0, 1), start: Float64Array.of(0, 1), frame: Float64Array.of(1, 2), width: 1, heaps: [], residency: null, transient: null }
    const checks = {
      hazards: Float64Array.of(2, 0),
      warnings: Float64Array.of(3, 1),
      total: Float64Array.of(6, 1),
      rules: [
        { rule: 'access-inactive', series: 'check.access-inactive', values: Float64Array.of(2, 0) },
        { rule: 'misalignedBind', series: 'check.misalignedBind', label: 'misalignedBind', values: Float64Array.of(3, 1) },
      ],
      max: n,
    }
    const option = checksLaneOption({ ...lanes, checks }, checks, {
      theme: (await import('../../../../src/renderer/src/lib/palette')).THEMES.dark,
      view: { from: 0, to: 1 },
      height: 60,
      t: (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key),
      frameNumber: (i) => i + 1,
    })
    const tip = (frame: number) => {
      const el = (option.tooltip as { formatter: (p: unknown) => HTMLElement }).formatter([{ axisValue: frame }])
      return [...el.querySelectorAll('.hs-tip-row')].map((r) => `${r.querySelector('.hs-tip-label')!.textContent}=${r.querySelector('.hs-tip-value')!.textContent}`)
    }
    // a rule named by the run's own label; one without: its description's label with the rule as parameter; the
    // total where it is more than hazards and warnings (a finding of neither kind)
    expect(tip(0)).toEqual(['tip.hazards=2', 'tip.warnings=3', 'misalignedBind=3', 'series.check.rule {"rule":"access-inactive"}=2', 'series.check.total=6'])
    // a rule that found nothing in the bucket is left out; a total that only adds up the two, too
    expect(tip(1)).toEqual(['tip.hazards=0', 'tip.warnings=1', 'misalignedBind=1'])
  })
})
