import { describe, expect, it } from 'vitest'
import { seriesLabel } from '../../../../src/renderer/src/lib/seriesLabel'

const t = (key: string, params?: Record<string, unknown>) => (params && Object.keys(params).length ? `${key} ${JSON.stringify(params)}` : key)

describe('series labels', () => {
  it("takes a series' label from its description, the run's own where the description names it by a parameter", () => {
    // a name of its own: the description's words, whatever the run calls it
    expect(seriesLabel('residency.residentBytes', t, 'resident')).toBe('series.residency.resident')
    expect(seriesLabel('resources.live', t)).toBe('series.liveCount')
    // a memory kind, a heap, a rule: the run's label names it
    expect(seriesLabel('memory.invisible.heapBytes', t, 'invisible heap bytes')).toBe('invisible heap bytes')
    expect(seriesLabel('heap.DEFAULT.heapBytes', t, 'DEFAULT heap bytes')).toBe('DEFAULT heap bytes')
    // without one, the description's words around the name's parts
    expect(seriesLabel('memory.invisible.heapBytes', t)).toBe('series.memory {"memory":"invisible","field":"heapBytes"}')
    // a series no description knows: the run's label, else its name
    expect([seriesLabel('custom.thing', t, 'a thing'), seriesLabel('custom.thing', t)]).toEqual(['a thing', 'custom.thing'])
  })
})
