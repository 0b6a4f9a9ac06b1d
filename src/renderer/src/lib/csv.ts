/** Tables as CSV (RFC 4180: comma-separated, CRLF, fields quoted when they hold a comma, quote or line break). */

export interface CsvColumn<Row> {
  header: string
  value: (row: Row) => string | number | boolean | null | undefined
}

export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return ''
  const text = typeof value === 'number' && !Number.isFinite(value) ? '' : String(value)
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

export function toCsv<Row>(columns: CsvColumn<Row>[], rows: Iterable<Row>): string {
  const lines = [columns.map((c) => csvField(c.header)).join(',')]
  for (const row of rows) lines.push(columns.map((c) => csvField(c.value(row))).join(','))
  return lines.join('\r\n') + '\r\n'
}
