/** A capture that cannot be read: names the file, the line, the byte offset and what was expected there. */
export class CaptureError extends Error {
  readonly file: string
  /** 1-based line number, 0 when the fault is not in a line (a truncated gzip stream, an unreadable file). */
  readonly line: number
  /** Byte offset of the fault from the start of the (decompressed) capture. */
  readonly byteOffset: number
  readonly expected: string
  readonly detail: string | undefined
  /** The offset counts bytes of the decompressed stream (a .gz capture), not of the file. */
  readonly decompressed: boolean

  constructor(file: string, line: number, byteOffset: number, expected: string, detail?: string, options: { decompressed?: boolean } = {}) {
    const offset = options.decompressed ? `byte offset ${byteOffset} of the decompressed stream` : `byte offset ${byteOffset}`
    const where = line > 0 ? `line ${line}, ${offset}` : offset
    super(`${file}: ${where}: ${detail ? `${detail}; ` : ''}expected ${expected}`)
    this.name = 'CaptureError'
    this.file = file
    this.line = line
    this.byteOffset = byteOffset
    this.expected = expected
    this.detail = detail
    this.decompressed = options.decompressed ?? false
  }

  /** The same fault, its offset said to be in the decompressed stream of a gzip-compressed capture. */
  inDecompressedStream(): CaptureError {
    return new CaptureError(this.file, this.line, this.byteOffset, this.expected, this.detail, { decompressed: true })
  }
}

/** A gzip-compressed capture cut short: the compressed file's length, and how far its decompressed stream got. */
export class TruncatedGzipError extends CaptureError {
  constructor(
    file: string,
    decompressedBytes: number,
    readonly compressedBytes: number,
    reason: string,
  ) {
    super(file, 0, decompressedBytes, 'a complete gzip stream', reason, { decompressed: true })
    this.name = 'TruncatedGzipError'
    this.message =
      `${file}: the gzip stream breaks off (${reason}) at byte ${compressedBytes} of the compressed file, ` +
      `byte ${decompressedBytes} of the decompressed stream; expected a complete gzip stream`
  }
}

/** The load was cancelled by the user. */
export class CancelledError extends Error {
  constructor() {
    super('load cancelled')
    this.name = 'CancelledError'
  }
}

/** A JSON document that no importer takes: says which formats were tried and why each refused. */
export class UnrecognisedFormatError extends CaptureError {
  constructor(
    file: string,
    readonly refusals: readonly { format: string; reason: string }[],
  ) {
    super(file, 0, 0, 'a format HeapScope reads')
    this.name = 'UnrecognisedFormatError'
    const tried = refusals.map((r) => `${r.format} (${r.reason})`).join('; ')
    this.message = `${file}: a JSON document that no importer reads; tried ${tried}`
  }
}
