/**
 * Schemas of every payload the renderer sends, checked in the host before anything runs: a compromised or
 * buggy renderer can only name files the host offered, and cannot send huge strings or arrays.
 */
import { z } from 'zod'
import { HISTORY_GROUPS, HISTORY_METRICS, IMPORT_BUCKET_MS, IMPORT_MODELS, RESOURCE_SORT_KEYS } from '../../shared/ipc'

export const MAX_CHUNK_BYTES = 16 * 1024 * 1024

const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only')
const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
const frameIndex = z.number().int().min(0).max(2 ** 32)
// series names carry tags, which are free text: any string without control characters
const seriesName = z
  .string()
  .min(1)
  .max(200)
  .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 0x20), 'no control characters')
const label = z.string().max(128)
/** A program's path, an argument or a file name on the host's machine: no NUL, which no OS takes in one. */
const commandText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes('\0'), 'no NUL characters')
/** How an imported trace's time becomes frames, and whether its requests go through a model (CaptureImportOptions). */
const importOptions = z
  .object({
    bucketMs: z.number().min(IMPORT_BUCKET_MS.min).max(IMPORT_BUCKET_MS.max).optional(),
    frameMarkers: z.boolean().optional(),
    model: z.enum(IMPORT_MODELS).optional(),
  })
  .strict()

export const schemas = {
  appInfo: z.undefined().or(z.null()),
  openCapture: z.object({ fileId: id, loadId: id, import: importOptions.optional() }).strict(),
  openCaptureDialog: id,
  beginUpload: z.object({ loadId: id, name: z.string().min(1).max(512), bytes, import: importOptions.optional() }).strict(),
  uploadChunk: z
    .object({
      loadId: id,
      data: z.instanceof(Uint8Array).refine((d) => d.byteLength <= MAX_CHUNK_BYTES, `a chunk holds at most ${MAX_CHUNK_BYTES} bytes`),
    })
    .strict(),
  endUpload: id,
  cancelLoad: id,
  closeRun: id,
  series: z
    .object({
      runId: id,
      series: z.array(seriesName).min(1).max(64),
      from: frameIndex,
      to: frameIndex,
      resolution: z.number().int().min(1).max(100_000),
    })
    .strict(),
  rerun: z
    .object({
      runId: id,
      loadId: id,
      config: z.record(z.string().max(80), z.union([z.string().max(64), z.number(), z.boolean()])).refine(
        (c) => Object.keys(c).length <= 64,
        'at most 64 keys',
      ),
    })
    .strict(),
  runConfig: id,
  report: id,
  snapshot: z.object({ runId: id, frame: frameIndex, blocks: z.boolean().optional() }).strict(),
  resources: z
    .object({
      runId: id,
      frame: frameIndex,
      sort: z.enum(RESOURCE_SORT_KEYS).optional(),
      descending: z.boolean().optional(),
      filter: z
        .object({
          placement: z.array(label).max(32).optional(),
          heap: z.array(label).max(8).optional(),
          tag: z.array(label).max(256).optional(),
          name: z.string().max(256).optional(),
        })
        .strict()
        .optional(),
      offset: z.number().int().min(0).max(2 ** 32),
      limit: z.number().int().min(0).max(5000),
    })
    .strict(),
  resource: z.object({ runId: id, frame: frameIndex, id: z.number().finite() }).strict(),
  transients: z.object({ runId: id, frame: frameIndex }).strict(),
  residencyEvents: z
    .object({ runId: id, from: frameIndex, to: frameIndex, limit: z.number().int().min(0).max(1_000_000) })
    .strict(),
  compareSeries: z
    .object({
      runA: id,
      runB: id,
      series: z.array(seriesName).min(1).max(64),
      from: frameIndex,
      to: frameIndex,
      resolution: z.number().int().min(1).max(100_000),
      offsetB: z.number().int().min(-(2 ** 32)).max(2 ** 32).optional(),
    })
    .strict(),
  resourceDiff: z
    .object({
      runA: id,
      runB: id,
      frameA: frameIndex.optional(),
      frameB: frameIndex.optional(),
      status: z.array(z.enum(['onlyA', 'onlyB', 'changed'])).max(3).optional(),
      offset: z.number().int().min(0).max(2 ** 32),
      limit: z.number().int().min(0).max(5000),
    })
    .strict(),
  leaks: z
    .object({
      runId: id,
      from: frameIndex,
      to: frameIndex,
      offset: z.number().int().min(0).max(2 ** 32),
      limit: z.number().int().min(0).max(5000),
      groups: z.boolean().optional(),
    })
    .strict(),
  startPlayback: z
    .object({ runId: id, playbackId: id, from: frameIndex, to: frameIndex, fps: z.number().min(0.5).max(240) })
    .strict(),
  ackPlayback: z.object({ playbackId: id, frame: frameIndex }).strict(),
  stopPlayback: id,
  settings: z.undefined().or(z.null()),
  updateSettings: z
    .object({
      theme: z.enum(['light', 'dark', 'system']).optional(),
      language: z.enum(['en', 'zh-CN']).optional(),
      configOverrides: z
        .record(z.string().max(80), z.string().max(64))
        .refine((c) => Object.keys(c).length <= 64, 'at most 64 keys')
        .optional(),
    })
    .strict(),
  recentFiles: z.undefined().or(z.null()),
  clearRecentFiles: z.undefined().or(z.null()),
  exportCapture: z
    .object({ runId: id, from: frameIndex.optional(), to: frameIndex.optional(), gzip: z.boolean() })
    .strict()
    .refine((r) => r.from === undefined || r.to === undefined || r.from < r.to, 'from must be before to'),
  hazards: z
    .object({
      runId: id,
      offset: z.number().int().min(0).max(2 ** 32),
      limit: z.number().int().min(0).max(5000),
      severity: z.enum(['hazard', 'warning']).optional(),
    })
    .strict(),
  placements: z.object({ runId: id, frame: frameIndex }).strict(),
  search: z
    .object({
      runId: id,
      text: z.string().max(1000),
      offset: z.number().int().min(0).max(2 ** 32),
      limit: z.number().int().min(0).max(1000),
      historyOf: z.number().int().min(0).max(2 ** 32).optional(),
      historyFrom: frameIndex.optional(),
    })
    .strict(),
  followCapture: z.object({ fileId: id, loadId: id }).strict(),
  stopFollowing: id,
  recordInfo: z.undefined().or(z.null()),
  startRecording: z
    .object({
      loadId: id,
      program: commandText(4096).pipe(z.string().min(1, 'name a program')),
      args: z.array(commandText(32_768)).max(1024),
      framesFrom: z.enum(['submit', 'present']).optional(),
      stacks: z.boolean(),
      // the layer writes plain NDJSON: only a .hscap name, so a mistyped path cannot overwrite another kind of file
      output: commandText(4096)
        .refine((s) => /\.hscap$/i.test(s), 'the capture file must end in .hscap')
        .optional(),
    })
    .strict(),
  stopRecording: id,
  // a path typed in the browser host's page: an absolute or relative file path, no control characters
  openHistory: z
    .string()
    .min(1)
    .max(4096)
    .refine((s) => ![...s].some((c) => c.charCodeAt(0) < 0x20), 'no control characters'),
  openHistoryDialog: z.undefined().or(z.null()),
  historyTrend: z
    .object({
      historyId: id,
      metric: z.enum(HISTORY_METRICS),
      by: z.enum(HISTORY_GROUPS).optional(),
      labels: z
        .record(label, label)
        .refine((l) => Object.keys(l).length <= 16, 'at most 16 labels')
        .optional(),
    })
    .strict(),
  historyRun: z.object({ historyId: id, runId: z.number().int().min(1).max(2 ** 31 - 1) }).strict(),
  closeHistory: id,
} as const

export type HandlerName = keyof typeof schemas

export class PayloadError extends Error {
  constructor(handler: string, issues: string) {
    super(`${handler}: refused payload: ${issues}`)
    this.name = 'PayloadError'
  }
}

export function parsePayload<K extends HandlerName>(name: K, payload: unknown): z.infer<(typeof schemas)[K]> {
  const result = schemas[name].safeParse(payload)
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ')
    throw new PayloadError(name, issues.slice(0, 500))
  }
  return result.data as z.infer<(typeof schemas)[K]>
}
