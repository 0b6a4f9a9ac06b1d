/** `heapscope report`: readable tables of a run's figures (the JSON form is the RunReport itself). */
import { formatBytes, formatCount } from '../../shared/units'
import type { RunReport } from '../../shared/ipc'

function table(title: string, rows: string[][]): string {
  if (rows.length === 0) return ''
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)))
  const lines = rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '))
  return `${title}\n${lines.map((l) => `  ${l}`).join('\n')}\n`
}

export function formatReport(report: RunReport): string {
  const out: string[] = []
  out.push(
    table('capture', [
      ['file', report.file],
      ['format', `${report.format} (${report.api})`],
      ['frames', formatCount(report.frames)],
      ['records', formatCount(report.records)],
      ['partial', report.partial ? `yes: ${report.error ?? ''}` : 'no'],
    ]),
  )
  out.push(
    table('resources', [
      ['created', formatCount(report.resources.created)],
      ['released', formatCount(report.resources.released)],
      ['named', formatCount(report.resources.named)],
      ['alive at end', formatCount(report.resources.liveAtEnd)],
    ]),
  )
  out.push(
    table('heaps', [
      ['', 'peak', 'end'],
      ...Object.entries(report.heaps).map(([heap, v]) => [heap, formatBytes(v.peakBytes), formatBytes(v.endBytes)]),
      ['all (peak frame ' + report.peak.frame + ')', formatBytes(report.peak.bytes), ''],
    ]),
  )
  // no placement where no model ran (an observed trace): its heaps above are what it holds
  if (report.byPlacement) {
    out.push(
      table('by placement', [
        ['', 'peak', 'end', 'live'],
        // a reserved resource's bytes are its committed tiles, never its virtual size
        ...Object.entries(report.byPlacement).map(([p, v]) => [
          p === 'Reserved' ? 'Reserved (committed)' : p,
          formatBytes(v.peakBytes),
          formatBytes(v.endBytes),
          formatCount(v.count),
        ]),
      ]),
    )
  }
  if (report.reserved) {
    out.push(
      table('reserved resources at end', [
        ['count', formatCount(report.reserved.count)],
        ['virtual (address space)', formatBytes(report.reserved.virtualBytes)],
        ['committed (memory)', formatBytes(report.reserved.committedBytes)],
      ]),
    )
  }
  out.push(
    table('waste at end', [
      // alignment and pending frees are a model's: absent for an observed trace
      ...(report.waste.alignmentBytes === undefined ? [] : [['alignment', formatBytes(report.waste.alignmentBytes)]]),
      [report.byPlacement ? 'free in pools' : 'free in heaps', formatBytes(report.waste.poolFreeBytes)],
      ...(report.waste.pendingFreeBytes === undefined ? [] : [['pending free', formatBytes(report.waste.pendingFreeBytes)]]),
    ]),
  )
  // The Vulkan model has no residency and no render graph (docs/vulkan-model.md): its JSON keeps their figures at
  // zero for the shape's sake, the tables leave them out and list what it counts instead.
  const vulkan = report.vulkan
  out.push(
    table('residency', [
      ['budget at end', report.residency.budgetBytes > 0 ? formatBytes(report.residency.budgetBytes) : 'none'],
      ...(vulkan
        ? []
        : [
            ['evictions', `${formatCount(report.residency.evictions)} (${formatBytes(report.residency.evictedBytes)})`],
            ['made resident', formatCount(report.residency.makeResident)],
          ]),
      ['over-budget frames', formatCount(report.residency.overBudgetFrames)],
    ]),
  )
  if (vulkan) {
    out.push(
      table('vulkan', [
        ['allocations (vkAllocateMemory)', formatCount(vulkan.allocations)],
        ['  dedicated', formatCount(vulkan.dedicatedAllocations)],
        ['  most live at once', formatCount(vulkan.peakLiveAllocations)],
        ['  shared by two or more resources', formatCount(vulkan.sharedAllocations)],
        ['binds', formatCount(vulkan.binds)],
        ['  at a non-zero offset', formatCount(vulkan.bindsAtOffset)],
        ['maps', formatCount(vulkan.maps)],
        ['flushes', formatCount(vulkan.flushes)],
        ['submits', formatCount(vulkan.submits)],
        ['names', formatCount(vulkan.names)],
        ['stacks', formatCount(vulkan.stacks)],
        ['driver memory reports', formatCount(vulkan.driverReports)],
      ]),
    )
  }
  const transient = vulkan ? undefined : report.transient
  if (transient) {
    out.push(
      table('transients', [
        ['graph executions', formatCount(transient.graphs)],
        ['heaps created', formatCount(transient.heaps)],
        ['aliasing saving, summed over frames', formatBytes(transient.aliasingSavingsBytes)],
        [`aliasing saving, peak frame (${transient.aliasingSavingsPeakFrame})`, formatBytes(transient.aliasingSavingsPeakBytes)],
        ['placed-resource cache hit rate', `${(transient.placedCacheHitRate * 100).toFixed(1)}%`],
      ]),
    )
  }
  const warnings = Object.entries(report.warnings)
  if (warnings.length) out.push(table('warnings', warnings.map(([k, n]) => [k, formatCount(n)])))
  return out.join('\n')
}
