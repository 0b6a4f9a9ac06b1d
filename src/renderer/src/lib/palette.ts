/**
 * Colours: one per placement (the same in every view: timeline lanes, pool maps, tables, compare), a stable one
 * per tag, and the chart colours of each theme. Canvas code and ECharts read these; CSS reads the variables in
 * styles.css, which carry the same values.
 */
import { PLACEMENTS, type HeapType } from '../../../shared/model'
import { APPLICATION, PLACEMENT_HEAP } from '../../../shared/series'

/** Placement rows the replay reports beyond PLACEMENTS: the per-frame page allocators of the UPLOAD heap. */
export const PAGE_ROWS = ['FastAllocatorPage', 'FastConstantPage'] as const
export { APPLICATION }
/** Every row a heap lane can stack, bottom to top. */
export const LANE_ROWS = [...PLACEMENTS, ...PAGE_ROWS, APPLICATION] as const

export const PLACEMENT_COLORS: Record<string, string> = {
  Committed: '#9b7bf0',
  SharedBufferPool: '#3fb96b',
  PlacedBufferPool: '#22a39a',
  AccelerationStructurePool: '#d8b23a',
  TextureReadOnlyPool: '#4a8df0',
  TextureReadOnly4KPool: '#35b6d6',
  TextureRTPool: '#e0609e',
  TextureUAVPool: '#e8625a',
  Reserved: '#b08555',
  UploadSmallBlock: '#ef8a3c',
  UploadBigBlock: '#d96a1f',
  ReadbackPool: '#93c548',
  Transient: '#c77ee6',
  FastAllocatorPage: '#e9b949',
  FastConstantPage: '#c9a86a',
  Application: '#8c96a3',
}

/** What a Vulkan run's VkDeviceMemory is for, as its pool maps name it. */
export const VULKAN_POOL_COLORS: Record<string, string> = {
  FreeList: '#4a8df0',
  Buddy: '#35b6d6',
  Dedicated: '#9b7bf0',
  Linear: '#ef8a3c',
  Staging: '#d96a1f',
  Bound: '#3fb96b',
}

/** A Vulkan run's memory types ("Type 3"), stacked in its heap lanes and named as resources' placement. */
const TYPE_COLORS = ['#4a8df0', '#3fb96b', '#ef8a3c', '#9b7bf0', '#35b6d6', '#e0609e', '#d8b23a', '#93c548', '#b08555', '#e8625a']

const FALLBACK = '#8c96a3'

export function placementColor(placement: string): string {
  const known = PLACEMENT_COLORS[placement] ?? VULKAN_POOL_COLORS[placement]
  if (known) return known
  const type = /^Type (\d+)$/.exec(placement)
  return type ? TYPE_COLORS[Number(type[1]) % TYPE_COLORS.length] : FALLBACK
}

export { PLACEMENT_HEAP }

/** Rows stacked in a heap's lane, bottom to top: Committed first, then the heap's own placements, then the application's heaps. */
export function laneRows(heap: HeapType): string[] {
  return LANE_ROWS.filter((row) => row === 'Committed' || row === APPLICATION || PLACEMENT_HEAP[row] === heap)
}

/** Eighteen colours for tags (stable: a tag keeps its colour in every run; few captures have more tags). */
const TAG_COLORS = [
  '#5b9cf5',
  '#f2a03d',
  '#56c271',
  '#e8605f',
  '#a98bf0',
  '#3cc2c2',
  '#e97fc1',
  '#c8c255',
  '#8fb0d8',
  '#d7905e',
  '#7fcf9e',
  '#b9a0c9',
  '#f0d070',
  '#6fa8a0',
  '#d86f8c',
  '#9c8f6a',
  '#7a86e8',
  '#b5d36b',
]

/** The tags engines commonly use (Unreal's LLM tags among them), each its own colour so they never collide. */
const KNOWN_TAGS: Record<string, string> = {
  Textures: '#5b9cf5',
  Meshes: '#f2a03d',
  RenderTargets: '#56c271',
  UniformBuffers: '#e8605f',
  Nanite: '#a98bf0',
  Lumen: '#3cc2c2',
  Shadows: '#e97fc1',
  Landscape: '#c8c255',
  Particles: '#8fb0d8',
  UI: '#d7905e',
  RayTracing: '#7fcf9e',
  SceneRender: '#b9a0c9',
  RHIMisc: '#f0d070',
  DistanceFields: '#6fa8a0',
  VirtualTexture: '#d86f8c',
  GPUScene: '#9c8f6a',
  Lighting: '#7a86e8',
  Upload: '#b5d36b',
  Readback: '#c98f3c',
  '(untagged)': '#8c96a3',
}

/** A tag's colour: its own for the common ones, else by FNV-1a of its name (the same tag, the same colour, in every run). */
export function tagColor(tag: string): string {
  const known = KNOWN_TAGS[tag]
  if (known) return known
  let h = 0x811c9dc5
  for (let i = 0; i < tag.length; i++) {
    h ^= tag.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return TAG_COLORS[h % TAG_COLORS.length]
}

export type ThemeName = 'dark' | 'light'

/** What charts and canvases draw with, per theme (the CSS variables of styles.css hold the same values). */
export interface ChartTheme {
  name: ThemeName
  background: string
  panel: string
  text: string
  muted: string
  grid: string
  axis: string
  tooltipBg: string
  tooltipBorder: string
  cursor: string
  hover: string
  budget: string
  resident: string
  evict: string
  makeResident: string
  warning: string
  overBudget: string
  waste: string
  saving: string
  transientHeap: string
  transientRequested: string
  range: string
  free: string
  freeBorder: string
  pending: string
  overlap: string
  delta: string
  deltaUp: string
  deltaDown: string
  runA: string
  runB: string
}

export const THEMES: Record<ThemeName, ChartTheme> = {
  dark: {
    name: 'dark',
    background: '#0f1318',
    panel: '#161b22',
    text: '#dfe5ec',
    muted: '#8b949e',
    grid: '#262d36',
    axis: '#3a434e',
    tooltipBg: 'rgba(22, 27, 34, 0.97)',
    tooltipBorder: '#3a434e',
    cursor: '#f0f3f6',
    hover: 'rgba(240, 243, 246, 0.35)',
    budget: '#ff5d5d',
    resident: '#4a8df0',
    evict: '#ff5d5d',
    makeResident: '#3fb96b',
    warning: '#e9b949',
    overBudget: 'rgba(255, 93, 93, 0.16)',
    waste: 'rgba(230, 237, 243, 0.55)',
    saving: 'rgba(199, 126, 230, 0.55)',
    transientHeap: '#c77ee6',
    transientRequested: '#e6c2f5',
    range: 'rgba(240, 184, 60, 0.13)',
    free: '#1c232c',
    freeBorder: '#2c3540',
    pending: '#6b7683',
    overlap: '#ffd24d',
    delta: '#e9b949',
    deltaUp: '#ff7b72',
    deltaDown: '#56d364',
    runA: '#4a8df0',
    runB: '#ef8a3c',
  },
  light: {
    name: 'light',
    background: '#ffffff',
    panel: '#f5f7f9',
    text: '#1f2328',
    muted: '#5e6a76',
    grid: '#e6eaee',
    axis: '#c5cdd5',
    tooltipBg: 'rgba(255, 255, 255, 0.98)',
    tooltipBorder: '#c5cdd5',
    cursor: '#1f2328',
    hover: 'rgba(31, 35, 40, 0.3)',
    budget: '#d1242f',
    resident: '#2f6fd6',
    evict: '#d1242f',
    makeResident: '#1a7f37',
    warning: '#b7791f',
    overBudget: 'rgba(209, 36, 47, 0.1)',
    waste: 'rgba(31, 35, 40, 0.45)',
    saving: 'rgba(150, 70, 190, 0.5)',
    transientHeap: '#a855d8',
    transientRequested: '#7a3fa0',
    range: 'rgba(212, 150, 20, 0.14)',
    free: '#eef1f4',
    freeBorder: '#d5dce3',
    pending: '#9aa5b1',
    overlap: '#c98a00',
    delta: '#b7791f',
    deltaUp: '#cf222e',
    deltaDown: '#1a7f37',
    runA: '#2f6fd6',
    runB: '#d96a1f',
  },
}
