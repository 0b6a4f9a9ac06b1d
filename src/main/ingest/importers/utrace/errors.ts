/** A trace the reader cannot read: bad magic, an unknown version, a broken packet, event or LZ4 block. */
export class UtraceFormatError extends Error {
  /** Byte offset in the file where the reader found the fault (of the packet, when it is LZ4-compressed). */
  readonly offset: number
  /** What the reader expected to find there. */
  readonly expected: string

  constructor(offset: number, expected: string, found?: string) {
    super(`Unreal Insights trace, byte offset ${offset}: expected ${expected}${found === undefined ? '' : `, found ${found}`}`)
    this.name = 'UtraceFormatError'
    this.offset = offset
    this.expected = expected
  }
}
