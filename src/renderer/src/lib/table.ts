/** Columns of the virtualized tables, and the resource row columns the inspector, leaks and diff share. */
import type { LeakGroup, ResourceRow } from '../../../shared/ipc'
import { formatBytes, formatCount } from '../../../shared/units'
import { placementColor } from './palette'
import type { Translate } from './laneOptions'
import type { CsvColumn } from './csv'

export interface Column<R> {
  key: string
  label: string
  /** Pixels, or 0 for the column that takes the remaining width. */
  width: number
  align?: 'left' | 'right'
  sortable?: boolean
  cell: (row: R) => string
  title?: (row: R) => string
  /** What the column means, as its header's tooltip. */
  hint?: string
  /** A colour swatch before the text. */
  swatch?: (row: R) => string | undefined
  mono?: boolean
}

/** "0x00400000": pool offsets read best in hex, as allocator dumps print them. */
export function hexOffset(offset: number): string {
  return `0x${offset.toString(16).padStart(8, '0')}`
}

export function resourceColumns(t: Translate, options: { sortable?: boolean; offsetHex?: boolean } = {}): Column<ResourceRow>[] {
  const sortable = options.sortable ?? true
  return [
    { key: 'id', label: t('col.id'), width: 64, align: 'right', sortable, mono: true, cell: (r) => String(r.id) },
    { key: 'name', label: t('col.name'), width: 0, sortable, cell: (r) => r.name || t('common.unnamed'), title: (r) => `${r.name}\n${r.kind} · ${r.tag}` },
    { key: 'tag', label: t('col.tag'), width: 110, sortable, cell: (r) => r.tag },
    {
      key: 'placement',
      label: t('col.placement'),
      width: 172,
      sortable,
      cell: (r) => r.placement,
      swatch: (r) => placementColor(r.placement),
    },
    { key: 'heap', label: t('col.heap'), hint: t('col.heapHint'), width: 78, sortable, cell: (r) => r.heap },
    { key: 'pool', label: t('col.pool'), hint: t('col.poolHint'), width: 170, sortable, cell: (r) => r.pool ?? '—' },
    {
      key: 'offset',
      label: t('col.offset'),
      width: 96,
      align: 'right',
      sortable,
      mono: true,
      cell: (r) => (r.pool === null ? '—' : hexOffset(r.offset)),
      title: (r) => `${formatCount(r.offset)} B`,
    },
    {
      key: 'occupied',
      label: t('col.occupied'),
      hint: t('col.occupiedHint'),
      width: 88,
      align: 'right',
      sortable,
      mono: true,
      cell: (r) => formatBytes(r.occupied),
      title: (r) => (r.virtual ? t('col.committedOf', { committed: formatBytes(r.occupied), virtual: formatBytes(r.virtual) }) : `${formatCount(r.occupied)} B`),
    },
    {
      key: 'virtual',
      label: t('col.virtual'),
      hint: t('col.virtualHint'),
      width: 80,
      align: 'right',
      mono: true,
      cell: (r) => (r.virtual ? formatBytes(r.virtual) : '—'),
    },
    {
      key: 'requested',
      label: t('col.requested'),
      width: 88,
      align: 'right',
      sortable,
      mono: true,
      cell: (r) => `${r.estimated ? '≈' : ''}${formatBytes(r.requested)}`,
      title: (r) => `${formatCount(r.requested)} B${r.estimated ? ` (${t('common.estimated')})` : ''}`,
    },
    { key: 'waste', label: t('col.waste'), width: 80, align: 'right', sortable, mono: true, cell: (r) => (r.waste ? formatBytes(r.waste) : '0') },
    { key: 'created', label: t('col.created'), width: 70, align: 'right', sortable, mono: true, cell: (r) => String(r.created) },
    { key: 'age', label: t('col.age'), width: 58, align: 'right', sortable, mono: true, cell: (r) => formatCount(r.age) },
  ]
}

/** The same columns for CSV: raw numbers (bytes as integers), so a spreadsheet can add them up. */
export const RESOURCE_CSV: CsvColumn<ResourceRow>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'name', value: (r) => r.name },
  { header: 'tag', value: (r) => r.tag },
  { header: 'kind', value: (r) => r.kind },
  { header: 'placement', value: (r) => r.placement },
  { header: 'heap', value: (r) => r.heap },
  { header: 'pool', value: (r) => r.pool ?? '' },
  { header: 'offset', value: (r) => r.offset },
  { header: 'occupied', value: (r) => r.occupied },
  { header: 'virtual', value: (r) => r.virtual ?? '' },
  { header: 'requested', value: (r) => r.requested },
  { header: 'waste', value: (r) => r.waste },
  { header: 'created', value: (r) => r.created },
  { header: 'age', value: (r) => r.age },
  { header: 'estimated', value: (r) => r.estimated },
]

/** Leak candidate groups: a name pattern or a tag, how many, how many bytes, how fast, and whether it only grew. */
export function leakGroupColumns(t: Translate): Column<LeakGroup>[] {
  return [
    {
      key: 'key',
      label: t('leakGroups.key'),
      width: 0,
      cell: (g) => g.key || (g.by === 'name' ? t('common.unnamed') : '—'),
      title: (g) => `${g.key}\n${t('leakGroups.createdRange', { first: g.firstCreated, last: g.lastCreated })}`,
    },
    { key: 'count', label: t('leakGroups.count'), width: 70, align: 'right', mono: true, cell: (g) => formatCount(g.count) },
    { key: 'bytes', label: t('leakGroups.bytes'), width: 90, align: 'right', mono: true, cell: (g) => formatBytes(g.bytes) },
    {
      key: 'perFrame',
      label: t('leakGroups.perFrame'),
      width: 118,
      align: 'right',
      mono: true,
      cell: (g) => `+${formatBytes(g.bytesPerFrame)}`,
      title: () => t('leakGroups.perFrameHint'),
    },
    { key: 'created', label: t('leakGroups.created'), width: 70, align: 'right', mono: true, cell: (g) => formatCount(g.created) },
    { key: 'freed', label: t('leakGroups.freed'), width: 62, align: 'right', mono: true, cell: (g) => formatCount(g.freed) },
    {
      key: 'steady',
      label: t('leakGroups.pattern'),
      width: 210,
      cell: (g) => (g.steady ? t('leakGroups.steady') : g.freed > 0 ? t('leakGroups.someFreed') : t('leakGroups.burst')),
      swatch: (g) => (g.steady ? 'var(--delta-up)' : undefined),
    },
  ]
}

export const LEAK_GROUP_CSV: CsvColumn<LeakGroup>[] = [
  { header: 'by', value: (g) => g.by },
  { header: 'key', value: (g) => g.key },
  { header: 'count', value: (g) => g.count },
  { header: 'bytes', value: (g) => g.bytes },
  { header: 'bytesPerFrame', value: (g) => Math.round(g.bytesPerFrame) },
  { header: 'created', value: (g) => g.created },
  { header: 'freed', value: (g) => g.freed },
  { header: 'firstCreated', value: (g) => g.firstCreated },
  { header: 'lastCreated', value: (g) => g.lastCreated },
  { header: 'steadyNeverFreed', value: (g) => g.steady },
]
