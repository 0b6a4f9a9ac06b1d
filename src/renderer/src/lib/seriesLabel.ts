/**
 * A series' label in the user's language, from its description (src/shared/series.ts). A description whose
 * template names the series by a parameter (a heap, a memory kind, a rule) has words only around that name: such
 * a series shows the label its run gives it, where the run gives one.
 */
import { describeSeries } from '../../../shared/series'
import type { Translate } from './laneOptions'

export function seriesLabel(name: string, t: Translate, given?: string): string {
  const d = describeSeries(name)
  if (!d) return given ?? name
  if (Object.keys(d.parts).length && given !== undefined) return given
  return t(d.label, d.parts)
}
