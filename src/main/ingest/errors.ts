/** A capture that cannot be read: names the file, the line, the byte offset and what was expected there. */
export class CaptureError extends Error {
  readonly file: string
  /** 1-based line number, 0 when the fault is not in a line (a truncated gzip stream, an unreadable file). */
  readonly line: number
  /** Byte offset of the fault from the start of the (decompressed) capture. */
  readonly byteOffset: number
  readonly expected: string

  constructor(file: string, line: number, byteOffset: number, expected: string, detail?: string) {
    const where = line > 0 ? `line ${line}, byte offset ${byteOffset}` : `byte offset ${byteOffset}`
    super(`${file}: ${where}: ${detail ? `${detail}; ` : ''}expected ${expected}`)
    this.name = 'CaptureError'
    this.file = file
    this.line = line
    this.byteOffset = byteOffset
    this.expected = expected
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
