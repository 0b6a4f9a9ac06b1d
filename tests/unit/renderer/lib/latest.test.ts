import { describe, expect, it } from 'vitest'
import { Latest } from '../../../../src/renderer/src/lib/latest'

describe('latest-wins queries', () => {
  it('runs the first request at once and only the last of those made meanwhile', async () => {
    const runs: number[] = []
    const applied: number[] = []
    const release: (() => void)[] = []
    const q = new Latest<number, number>(
      (r) => {
        runs.push(r)
        return new Promise((resolve) => release.push(() => resolve(r)))
      },
      (a) => applied.push(a),
    )
    const done = q.request(1)
    void q.request(2)
    void q.request(3)
    release.shift()!()
    await new Promise((r) => setTimeout(r, 0))
    release.shift()!()
    await done
    // 1 ran and was superseded before it returned; 2 was replaced while waiting; 3 ran and applied
    expect(runs).toEqual([1, 3])
    expect(applied).toEqual([3])
  })

  it('drops the answer in flight after a reset, and runs what comes after', async () => {
    const applied: number[] = []
    const release: (() => void)[] = []
    const q = new Latest<number, number>(
      (r) => new Promise((resolve) => release.push(() => resolve(r))),
      (a) => applied.push(a),
    )
    const done = q.request(1)
    q.reset()
    void q.request(2)
    release.shift()!()
    await new Promise((r) => setTimeout(r, 0))
    release.shift()!()
    await done
    expect(applied).toEqual([2])
  })
})
