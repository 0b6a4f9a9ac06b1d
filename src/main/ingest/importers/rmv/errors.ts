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

/** A trace cut short: where the file ends, and what of it can still be read. */
export class RmvTruncatedError extends RmvFormatError {
  constructor(offset: number, fileLength: number, detail: string) {
    super(offset, 'the rest of the trace')
    this.name = 'RmvTruncatedError'
    this.message = `RMV trace truncated: the file ends at byte ${fileLength}; ${detail}`
  }
}
