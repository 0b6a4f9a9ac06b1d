/**
 * Growable typed-array columns: the capture store keeps one per field. Capacity grows by half again (not
 * doubling) so a 20-million-record capture does not briefly hold twice its size; `trim()` drops the slack.
 */
type TypedArray = Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array
type TypedArrayCtor<T extends TypedArray> = { new (length: number): T; BYTES_PER_ELEMENT: number }

export class Column<T extends TypedArray> {
  data: T
  length = 0
  private readonly ctor: TypedArrayCtor<T>

  constructor(ctor: TypedArrayCtor<T>, capacity = 1024) {
    this.ctor = ctor
    this.data = new ctor(capacity)
  }

  push(value: number): number {
    if (this.length === this.data.length) this.grow(this.length + 1)
    this.data[this.length] = value
    return this.length++
  }

  /** Make room for `extra` more values without pushing them. */
  reserve(extra: number): void {
    if (this.length + extra > this.data.length) this.grow(this.length + extra)
  }

  get(index: number): number {
    return this.data[index]
  }

  set(index: number, value: number): void {
    this.data[index] = value
  }

  private grow(min: number): void {
    let capacity = Math.max(1024, Math.ceil(this.data.length * 1.5))
    while (capacity < min) capacity = Math.ceil(capacity * 1.5)
    const next = new this.ctor(capacity)
    next.set(this.data.subarray(0, this.length) as never)
    this.data = next
  }

  /** Drop unused capacity; returns the exact-length array. */
  trim(): T {
    if (this.data.length !== this.length) this.data = this.data.slice(0, this.length) as T
    return this.data
  }

  /** The filled part, without copying. */
  view(): T {
    return this.data.subarray(0, this.length) as T
  }

  byteLength(): number {
    return this.data.byteLength
  }
}

export const f64 = (capacity?: number) => new Column(Float64Array, capacity)
export const u32 = (capacity?: number) => new Column(Uint32Array, capacity)
export const i32 = (capacity?: number) => new Column(Int32Array, capacity)
export const u16 = (capacity?: number) => new Column(Uint16Array, capacity)
export const u8 = (capacity?: number) => new Column(Uint8Array, capacity)
