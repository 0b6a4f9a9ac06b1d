import { describe, expect, it } from 'vitest'
import { CAPTURE_MINOR, type CaptureHeader } from '../../../../src/shared/capture'
import { checkHeader, MINOR_UPGRADERS, upgradeMinor } from '../../../../src/main/ingest/versions'

/** A header of each minor as a writer of that minor wrote it, with keys a later minor does not know. */
const d3d12 = (minor: number): CaptureHeader =>
  ({ format: 'heapscope-capture', version: 1, ...(minor > 0 ? { minor } : {}), api: 'd3d12', app: 'Game', budget: 1024 }) as CaptureHeader
const vulkan = (minor: number): CaptureHeader =>
  ({ format: 'heapscope-capture', version: 1, ...(minor > 0 ? { minor } : {}), api: 'vulkan', adapter: { vram: 4096 } }) as CaptureHeader

describe('format 1 minor upgraders', () => {
  it('exist for every minor before the current one, and none past it', () => {
    expect(CAPTURE_MINOR).toBe(5)
    expect(Object.keys(MINOR_UPGRADERS).map(Number)).toEqual([0, 1, 2, 3, 4])
  })

  it('1.0 → 1.1 raises the minor alone', () => {
    expect(MINOR_UPGRADERS[0].header(d3d12(0))).toMatchInlineSnapshot(`
      {
        "api": "d3d12",
        "app": "Game",
        "budget": 1024,
        "format": "heapscope-capture",
        "minor": 1,
        "version": 1,
      }
    `)
    expect(MINOR_UPGRADERS[0].header(vulkan(0))).toMatchInlineSnapshot(`
      {
        "adapter": {
          "vram": 4096,
        },
        "api": "vulkan",
        "format": "heapscope-capture",
        "minor": 1,
        "version": 1,
      }
    `)
  })

  it('1.1 → 1.2 raises the minor alone', () => {
    expect(MINOR_UPGRADERS[1].header(vulkan(1))).toMatchInlineSnapshot(`
      {
        "adapter": {
          "vram": 4096,
        },
        "api": "vulkan",
        "format": "heapscope-capture",
        "minor": 2,
        "version": 1,
      }
    `)
  })

  it('1.2 → 1.3 raises the minor alone', () => {
    expect(MINOR_UPGRADERS[2].header(d3d12(2))).toMatchInlineSnapshot(`
      {
        "api": "d3d12",
        "app": "Game",
        "budget": 1024,
        "format": "heapscope-capture",
        "minor": 3,
        "version": 1,
      }
    `)
  })

  it('1.3 → 1.4 raises the minor alone', () => {
    expect(MINOR_UPGRADERS[3].header(d3d12(3))).toMatchInlineSnapshot(`
      {
        "api": "d3d12",
        "app": "Game",
        "budget": 1024,
        "format": "heapscope-capture",
        "minor": 4,
        "version": 1,
      }
    `)
  })

  it('1.4 → 1.5 raises the minor alone: a capture without `observed` stays requests for a model', () => {
    expect(MINOR_UPGRADERS[4].header(d3d12(4))).toMatchInlineSnapshot(`
      {
        "api": "d3d12",
        "app": "Game",
        "budget": 1024,
        "format": "heapscope-capture",
        "minor": 5,
        "version": 1,
      }
    `)
  })

  it('read the header’s `observed` (1.5) when it names a tracer, and refuse one it does not name', () => {
    for (const observed of ['rmv', 'gpgmm', 'vma', 'utrace']) {
      const header = { ...d3d12(5), observed } as CaptureHeader
      expect(checkHeader(header)).toEqual({ ok: true, header })
    }
    expect(checkHeader({ ...d3d12(5), observed: 'perfetto' })).toEqual({
      ok: false,
      expected: '"observed": "rmv", "gpgmm", "vma", "utrace" (format 1.5)',
      detail: 'observed is "perfetto"',
    })
    expect(checkHeader({ ...d3d12(5), observed: true })).toMatchObject({ ok: false, detail: 'observed is true' })
    // a long value is cut in the message
    const long = checkHeader({ ...d3d12(5), observed: 'x'.repeat(10_000) })
    expect(long.ok).toBe(false)
    if (!long.ok) expect(long.detail.length).toBeLessThan(100)
  })

  it('bring any minor to the current one step by step, leave the input alone, and upgrade no record', () => {
    for (let minor = 0; minor <= CAPTURE_MINOR; minor++) {
      const header = vulkan(minor)
      const before = structuredClone(header)
      expect(upgradeMinor(header, CAPTURE_MINOR)).toEqual({ ...vulkan(0), minor: CAPTURE_MINOR })
      expect(header).toEqual(before)
    }
    expect(upgradeMinor(d3d12(1), 2)).toEqual({ ...d3d12(0), minor: 2 })
    for (const upgrader of Object.values(MINOR_UPGRADERS)) expect(upgrader.record).toBeUndefined()
  })

  it('leave a header of a newer minor as it is: a reader reads it, keeping what it does not know', () => {
    expect(upgradeMinor(d3d12(7), CAPTURE_MINOR)).toEqual(d3d12(7))
    expect(checkHeader(d3d12(7))).toEqual({ ok: true, header: d3d12(7) })
  })
})
