/** Typed arrays the models' tables grow: a copy `length` long, the values first, the rest zero. */
export function grown<T extends Uint8Array | Int8Array | Int32Array | Float64Array>(values: T, length: number): T {
  const out = new (values.constructor as new (length: number) => T)(length)
  out.set(values)
  return out
}
