/**
 * Chart tooltips as DOM nodes, not HTML strings: colours are set through the style object, so the strict
 * Content-Security-Policy (no inline style attributes) holds, and names from captures are text, never markup.
 */

import type { ChartTheme } from './palette'

/** The frame every ECharts tooltip of the app shares: axis-triggered, kept inside the chart, themed, no animation. */
export function tooltipFrame(theme: Pick<ChartTheme, 'tooltipBg' | 'tooltipBorder' | 'text'>) {
  return {
    trigger: 'axis' as const,
    confine: true,
    transitionDuration: 0,
    backgroundColor: theme.tooltipBg,
    borderColor: theme.tooltipBorder,
    borderWidth: 1,
    padding: [6, 9],
    className: 'hs-echarts-tip',
    textStyle: { color: theme.text, fontSize: 12 },
  }
}

export interface TipRow {
  label: string
  value: string
  /** Swatch colour; a hatched swatch when `hatched`. */
  color?: string
  hatched?: boolean
  strong?: boolean
  muted?: boolean
}

export type TipLine = TipRow | 'separator'

function el(tag: string, className: string, text?: string): HTMLElement {
  const node = document.createElement(tag)
  node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

export function tooltipElement(title: string, lines: TipLine[], note?: string): HTMLElement {
  const root = el('div', 'hs-tip')
  root.appendChild(el('div', 'hs-tip-title', title))
  for (const line of lines) {
    if (line === 'separator') {
      root.appendChild(el('div', 'hs-tip-sep'))
      continue
    }
    const row = el('div', `hs-tip-row${line.strong ? ' strong' : ''}${line.muted ? ' muted' : ''}`)
    const swatch = el('span', `hs-tip-sw${line.hatched ? ' hatched' : ''}${line.color ? '' : ' none'}`)
    if (line.color) swatch.style.setProperty('--sw', line.color)
    row.appendChild(swatch)
    row.appendChild(el('span', 'hs-tip-label', line.label))
    row.appendChild(el('span', 'hs-tip-value', line.value))
    root.appendChild(row)
  }
  if (note) root.appendChild(el('div', 'hs-tip-note', note))
  return root
}
