/**
 * Capture format versions. A header names its version; older versions are upgraded step by step through
 * UPGRADERS (from version v to v + 1) before the records are read; a newer version is refused.
 * docs/CHANGELOG-formats.md lists what each version changed.
 */
import { CAPTURE_FORMAT, CAPTURE_VERSION, OBSERVED_SOURCES, type CaptureHeader } from '../../shared/capture'

export interface Upgrader {
  /** Rewrites a header of version `from` into version `from + 1`. */
  header(header: CaptureHeader): CaptureHeader
  /** Rewrites one record object, or returns it unchanged. Records are only upgraded on the object path. */
  record?(record: Record<string, unknown>): Record<string, unknown>
}

/** Keyed by the version they upgrade from. Version 1 is the first: nothing to upgrade yet. */
export const UPGRADERS: Record<number, Upgrader> = {}

/**
 * Minor versions of format 1, keyed by the minor they upgrade from, one for each minor before CAPTURE_MINOR. A minor
 * only adds (docs/capture-format-vulkan.md): a reader reads an older minor as it is, so these say what each step
 * changes for a writer that brings a capture up to a newer minor.
 */
export const MINOR_UPGRADERS: Record<number, Upgrader> = {
  // 1.0 → 1.1: the Vulkan header block, fields and records are new; nothing older changes. A Vulkan header without a
  // `vulkan` block stays without one: 1.1 replays it on the default device, as 1.0 did.
  0: { header: (header) => ({ ...header, minor: 1 }) as CaptureHeader },
  // 1.1 → 1.2: `resident` and `evict` records are new; nothing older changes
  1: { header: (header) => ({ ...header, minor: 2 }) as CaptureHeader },
  // 1.2 → 1.3: `name`, `stack` and `report` records, the recorder's header keys and fields are new; nothing older changes
  2: { header: (header) => ({ ...header, minor: 3 }) as CaptureHeader },
  // 1.3 → 1.4: `passNames` on `endgraph` is new; nothing older changes
  3: { header: (header) => ({ ...header, minor: 4 }) as CaptureHeader },
  // 1.4 → 1.5: the header's `observed` and `memory` on `heap` are new; nothing older changes. A capture without
  // `observed` stays requests for a model, as in 1.4.
  4: { header: (header) => ({ ...header, minor: 5 }) as CaptureHeader },
}

/** Bring a format-1 header from its minor (absent: 0) to `to`. */
export function upgradeMinor(header: CaptureHeader, to: number): CaptureHeader {
  let out = header
  for (let m = (header as { minor?: number }).minor ?? 0; m < to && MINOR_UPGRADERS[m]; m++) out = MINOR_UPGRADERS[m].header(out)
  return out
}

export type HeaderCheck = { ok: true; header: CaptureHeader } | { ok: false; expected: string; detail: string }

/** Check a parsed first line and bring it to the current version. */
export function checkHeader(value: unknown): HeaderCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, expected: `a header object {"format":"${CAPTURE_FORMAT}","version":1,…}`, detail: 'not an object' }
  }
  const h = value as Record<string, unknown>
  if (h.format !== CAPTURE_FORMAT) {
    return {
      ok: false,
      expected: `"format":"${CAPTURE_FORMAT}" in the first line`,
      detail: h.format === undefined ? 'the first line has no "format"' : `format is ${JSON.stringify(h.format)}`,
    }
  }
  const version = h.version
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
    return { ok: false, expected: 'an integer "version" ≥ 1', detail: `version is ${JSON.stringify(version)}` }
  }
  if (version > CAPTURE_VERSION) {
    return {
      ok: false,
      expected: `version ${CAPTURE_VERSION} or older`,
      detail: `this capture is format version ${version}, newer than this reader's version ${CAPTURE_VERSION}; update HeapScope`,
    }
  }
  if (h.api !== undefined && h.api !== 'd3d12' && h.api !== 'vulkan') {
    return { ok: false, expected: '"api": "d3d12" or "vulkan"', detail: `api is ${JSON.stringify(h.api)}` }
  }
  if (h.observed !== undefined && !OBSERVED_SOURCES.includes(h.observed as never)) {
    return {
      ok: false,
      expected: `"observed": ${OBSERVED_SOURCES.map((s) => JSON.stringify(s)).join(', ')} (format 1.5)`,
      detail: `observed is ${JSON.stringify(h.observed).slice(0, 80)}`,
    }
  }
  let header = h as CaptureHeader
  for (let v = version; v < CAPTURE_VERSION; v++) header = { ...UPGRADERS[v].header(header), version: v + 1 }
  return { ok: true, header }
}
