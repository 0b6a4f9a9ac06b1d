/** A trace the reader cannot read: bad magic, a chunk out of range, a truncated or unknown token. */
export class RmvFormatError extends Error {
  /** Byte offset in the file where the reader found the fault. */
  readonly offset: number
  /** What the reader expected to find there. */
  readonly expected: string

  constructor(offset: number, expected: string, found?: string) {
    super(`RMV trace, byte offset ${offset}: expected ${expected}${found === undefined ? '' : `, found ${found}`}`)
    this.name = 'RmvFormatError'
    this.offset = offset
    this.expected = expected
  }
}
