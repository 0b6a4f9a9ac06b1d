import { afterAll, beforeAll } from 'vitest'

/**
 * happy-dom lays nothing out: while the calling suite runs, every element has the size of a window (1200 × 400),
 * so the virtualized tables show rows.
 */
export function layOutAsAWindow(): void {
  const box = { offsetHeight: 400, offsetWidth: 1200, clientHeight: 400, clientWidth: 1200 }
  const saved = Object.fromEntries(
    Object.keys(box).map((k) => [k, Object.getOwnPropertyDescriptor(HTMLElement.prototype, k) ?? Object.getOwnPropertyDescriptor(Element.prototype, k)]),
  )
  beforeAll(() => {
    for (const [k, v] of Object.entries(box)) Object.defineProperty(HTMLElement.prototype, k, { configurable: true, get: () => v })
  })
  afterAll(() => {
    for (const [k, d] of Object.entries(saved)) if (d) Object.defineProperty(HTMLElement.prototype, k, d)
  })
}
