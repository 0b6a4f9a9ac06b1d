/**
 * What the plain-canvas views (block maps, aliasing, the overview strip) share: an element's size followed as it
 * changes, a context drawn in CSS pixels at the device's pixel ratio, and the column axis under a step plot.
 */
import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue'
import { frameTicks } from './ticks'

/** The size of `element` in CSS pixels, followed with a ResizeObserver while the component is mounted. */
export function useElementSize(element: Ref<HTMLElement | null>, onResize?: () => void): Ref<{ width: number; height: number }> {
  const size = ref({ width: 0, height: 0 })
  let observer: ResizeObserver | undefined
  onMounted(() => {
    if (typeof ResizeObserver === 'undefined' || !element.value) return
    observer = new ResizeObserver((entries) => {
      const r = entries[0].contentRect
      size.value = { width: r.width, height: r.height }
      onResize?.()
    })
    observer.observe(element.value)
  })
  onBeforeUnmount(() => observer?.disconnect())
  return size
}

/**
 * The canvas' 2D context, cleared, its backing store `width` × `height` CSS pixels at the device's pixel ratio
 * (resized only when that changed, which clears it anyway); null without a context.
 */
export function canvasContext(canvas: HTMLCanvasElement | null, width: number, height: number): CanvasRenderingContext2D | null {
  const g = canvas?.getContext('2d')
  if (!canvas || !g) return null
  const dpr = window.devicePixelRatio || 1
  const w = Math.round(width * dpr)
  const h = Math.round(height * dpr)
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w
    canvas.height = h
  }
  g.setTransform(dpr, 0, 0, dpr, 0, 0)
  g.clearRect(0, 0, width, height)
  return g
}

export interface ColumnAxis {
  /** Columns of the plot, and how many of them are numbered (0 to count − 1; none when 0). */
  columns: number
  count: number
  /** The plot's left and right edges, and the axis' baseline (the plot's bottom). */
  left: number
  right: number
  bottom: number
  /** The canvas' width: the axis' name sits at its right edge. */
  width: number
  name: string
  color: string
  /** Least pixels between two numbers, and the room kept clear before the name. */
  spacing: number
  clearance: number
  /** Names of the columns (a graph's passes, when the capture gives them): written instead of numbers, cut to fit. */
  labels?: readonly string[]
}

/** `text` cut with an ellipsis to `width` pixels in the context's font. */
export function fitText(g: CanvasRenderingContext2D, text: string, width: number): string {
  if (g.measureText(text).width <= width) return text
  let n = text.length
  while (n > 1 && g.measureText(`${text.slice(0, n)}…`).width > width) n--
  return `${text.slice(0, n)}…`
}

/** Column numbers under a plot of equal columns (passes, steps), thinned to fit, and the axis' name at the right. */
export function drawColumnAxis(g: CanvasRenderingContext2D, a: ColumnAxis): void {
  g.fillStyle = a.color
  g.font = '10px system-ui, sans-serif'
  g.textAlign = 'center'
  g.textBaseline = 'top'
  const span = a.right - a.left
  const column = span / Math.max(1, a.columns)
  const nameLeft = a.width - 4 - g.measureText(a.name).width
  if (a.count > 0) {
    // names need more room than numbers: a tick every 96 px at least, each name cut to it
    const spacing = a.labels ? Math.max(a.spacing, 96) : a.spacing
    for (const i of frameTicks(0, a.count - 1, span, spacing)) {
      const x = a.left + i * column + column / 2
      if (x + a.clearance >= nameLeft) continue
      const name = a.labels?.[i]
      g.fillText(name ? fitText(g, name, spacing - 8) : String(i), x, a.bottom + 6)
    }
  }
  g.textAlign = 'right'
  g.fillText(a.name, a.width - 4, a.bottom + 6)
}
