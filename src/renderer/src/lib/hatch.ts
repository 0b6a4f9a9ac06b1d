/**
 * Diagonal hatches: the look of bytes held but not in use (waste, pending frees) and of bytes two resources share,
 * the same tile for the ECharts lanes and the plain-canvas views.
 */

/** A `size`-pixel square tile of diagonal `color` lines on `background` (transparent without), or null without canvas. */
export function hatchTile(color: string, size: number, lineWidth: number, background?: string): HTMLCanvasElement | null {
  if (typeof document === 'undefined') return null
  const tile = document.createElement('canvas')
  tile.width = size
  tile.height = size
  const g = tile.getContext?.('2d')
  if (!g) return null
  if (background) {
    g.fillStyle = background
    g.fillRect(0, 0, size, size)
  }
  g.strokeStyle = color
  g.lineWidth = lineWidth
  g.beginPath()
  // the diagonal and the two corners that continue it in the next tiles, so the lines run unbroken
  g.moveTo(-1, size + 1)
  g.lineTo(size + 1, -1)
  g.moveTo(size - 1, size + 1)
  g.lineTo(size + 1, size - 1)
  g.moveTo(-1, 1)
  g.lineTo(1, -1)
  g.stroke()
  return tile
}

/** Canvas patterns of hatch tiles by colour and background, made once each; a plain colour where canvas is unavailable. */
export class Hatches {
  private readonly patterns = new Map<string, CanvasPattern | string>()

  constructor(
    private readonly size: number,
    private readonly lineWidth: number,
  ) {}

  get(g: CanvasRenderingContext2D, color: string, background?: string): CanvasPattern | string {
    const key = `${color}|${background ?? ''}`
    let pattern = this.patterns.get(key)
    if (pattern === undefined) {
      const tile = hatchTile(color, this.size, this.lineWidth, background)
      pattern = (tile && g.createPattern(tile, 'repeat')) ?? color
      this.patterns.set(key, pattern)
    }
    return pattern
  }

  /** Forget the patterns (a theme change, a canvas of another context). */
  clear(): void {
    this.patterns.clear()
  }
}
