/** Typed arrays the models' tables grow: a copy `length` long, the values first, the rest `fill` (zero by default). */
export function grown<T extends Uint8Array | Int8Array | Int32Array | Uint32Array | Float64Array>(values: T, length: number, fill = 0): T {
  const out = new (values.constructor as new (length: number) => T)(length)
  out.set(values)
  if (fill !== 0) out.fill(fill, values.length)
  return out
}
