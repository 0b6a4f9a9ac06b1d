import { describe, expect, it } from 'vitest'
import { IdPool } from '../../../../src/main/gen/ids'

describe('IdPool', () => {
  it('hands out new ids, and a released one only once its delay has passed, oldest first', () => {
    const ids = new IdPool(1, 3)
    expect([ids.take(1), ids.take(1), ids.take(1)]).toEqual([1, 2, 3])
    ids.give(2, 1)
    ids.give(1, 2)
    // Frame 3: id 2 was released at frame 1, back at frame 1 + 3 = 4.
    expect(ids.take(3)).toBe(4)
    expect(ids.take(4)).toBe(2)
    // Id 1 released at frame 2 comes back at 5.
    expect(ids.take(4)).toBe(5)
    expect(ids.take(5)).toBe(1)
    expect(ids.liveCount).toBe(5)
  })

  it('keeps every id unique among the live ones through many releases (and its queue grows)', () => {
    const ids = new IdPool(1, 2)
    const live = new Set<number>()
    let frame = 0
    for (let round = 0; round < 50; round++) {
      frame++
      for (let i = 0; i < 3000; i++) {
        const id = ids.take(frame)
        expect(live.has(id)).toBe(false)
        live.add(id)
      }
      for (const id of [...live].slice(0, 2990)) {
        live.delete(id)
        ids.give(id, frame)
      }
    }
    expect(ids.liveCount).toBe(live.size)
    // Reuse keeps the ids dense: 500 live at the end, with 2 frames of released ids waiting.
    expect(Math.max(...live)).toBeLessThan(3000 * 4)
  })
})
