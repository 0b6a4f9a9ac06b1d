/**
 * Schemas of every payload the renderer sends, checked in the host before anything runs: a compromised or
 * buggy renderer can only name files the host offered, and cannot send huge strings or arrays.
 */
import { z } from 'zod'

export const MAX_CHUNK_BYTES = 16 * 1024 * 1024

const id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_.:-]+$/, 'letters, digits and _ . : - only')
const bytes = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
const frameIndex = z.number().int().min(0).max(2 ** 32)

export const schemas = {
  appInfo: z.undefined().or(z.null()),
  openCapture: z.object({ fileId: id, loadId: id }).strict(),
  openCaptureDialog: id,
  beginUpload: z.object({ loadId: id, name: z.string().min(1).max(512), bytes }).strict(),
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
      series: z.array(z.string().min(1).max(160).regex(/^[\w.:/ -]+$/)).min(1).max(64),
      from: frameIndex,
      to: frameIndex,
      resolution: z.number().int().min(1).max(100_000),
    })
    .strict(),
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
