/** Saving what the page made (a chart's PNG, a table's CSV, an exported capture) through the browser's download. */

export function downloadBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  downloadUrl(url, name)
  // the click has started the download by the next task
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export function downloadUrl(url: string, name: string): void {
  const a = document.createElement('a')
  a.href = url
  a.download = name
  a.rel = 'noopener'
  document.body.appendChild(a)
  a.click()
  a.remove()
}

export function downloadText(text: string, name: string, type = 'text/csv;charset=utf-8'): void {
  // a BOM so spreadsheet programs read UTF-8 (names may be Chinese)
  downloadBlob(new Blob(['\ufeff', text], { type }), name)
}

/** A file name from a capture's name and what is exported: "demo-timeline.png". */
export function exportName(file: string | undefined, what: string, ext: string): string {
  const base = (file ?? 'heapscope').replace(/\.(hscap(\.gz)?|json|rmv|gz)$/i, '').replace(/[^\w.-]+/g, '_')
  return `${base}-${what}.${ext}`
}
