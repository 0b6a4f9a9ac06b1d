/**
 * The browser host's message codec: JSON for structure, typed arrays as raw bytes after it, so series and
 * upload chunks cross the WebSocket without a text round trip. Layout of one message:
 *   u32 (LE) JSON byte length · JSON (UTF-8) · zero padding to 8 · each typed array's bytes, 8-aligned.
 * In the JSON a typed array is {"$ta": type, "o": byte offset in the binary part, "n": element count}.
 */
const TYPES = {
  f64: Float64Array,
  f32: Float32Array,
  u32: Uint32Array,
  i32: Int32Array,
  u16: Uint16Array,
  u8: Uint8Array,
} as const
type TypeName = keyof typeof TYPES
type Typed = InstanceType<(typeof TYPES)[TypeName]>

function typeName(value: Typed): TypeName {
  if (value instanceof Float64Array) return 'f64'
  if (value instanceof Float32Array) return 'f32'
  if (value instanceof Uint32Array) return 'u32'
  if (value instanceof Int32Array) return 'i32'
  if (value instanceof Uint16Array) return 'u16'
  return 'u8'
}

function isTyped(value: unknown): value is Typed {
  return ArrayBuffer.isView(value) && !(value instanceof DataView)
}

const align8 = (n: number) => (n + 7) & ~7

export function encodeMessage(message: unknown): Uint8Array {
  const blobs: Typed[] = []
  let binLength = 0
  const json = JSON.stringify(message, (_key, value: unknown) => {
    if (isTyped(value)) {
      const o = binLength
      blobs.push(value)
      binLength = align8(binLength + value.byteLength)
      return { $ta: typeName(value), o, n: value.length }
    }
    return value
  })
  const text = new TextEncoder().encode(json)
  const head = align8(4 + text.length)
  const out = new Uint8Array(head + binLength)
  new DataView(out.buffer).setUint32(0, text.length, true)
  out.set(text, 4)
  let at = head
  for (const blob of blobs) {
    out.set(new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength), at)
    at = align8(at + blob.byteLength)
  }
  return out
}

export class WireError extends Error {}

export function decodeMessage(data: ArrayBuffer | Uint8Array): unknown {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data)
  if (bytes.length < 4) throw new WireError('message shorter than its header')
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true)
  if (4 + length > bytes.length) throw new WireError('message JSON runs past its end')
  const head = align8(4 + length)
  const json = new TextDecoder().decode(bytes.subarray(4, 4 + length))
  return JSON.parse(json, (_key, value: unknown) => {
    if (value && typeof value === 'object' && '$ta' in value) {
      const { $ta, o, n } = value as { $ta: TypeName; o: number; n: number }
      // own keys only: "constructor" or "__proto__" must not find Object's
      const ctor = Object.hasOwn(TYPES, $ta) ? TYPES[$ta] : undefined
      if (!ctor || !Number.isInteger(o) || !Number.isInteger(n) || o < 0 || n < 0) throw new WireError('bad typed array')
      const byteLength = n * ctor.BYTES_PER_ELEMENT
      if (head + o + byteLength > bytes.length) throw new WireError('typed array runs past the message')
      // copy into a buffer of its own: aligned whatever the socket buffer's offset, and never a view of a
      // pooled buffer (Node's Buffer.slice does not copy)
      const own = new Uint8Array(byteLength)
      own.set(bytes.subarray(head + o, head + o + byteLength))
      return new ctor(own.buffer)
    }
    return value
  })
}
