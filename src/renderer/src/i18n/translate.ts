/**
 * The lanes' translate function: vue-i18n's, except that a placement with no message of its own (a Vulkan
 * run's memory types, "Type 3") is shown by its own name rather than by its message path.
 */
import type { Composer } from 'vue-i18n'

export function laneTranslate(i18n: Pick<Composer, 't' | 'te'>): (key: string, params?: Record<string, unknown>) => string {
  return (key, params) => {
    if (key.startsWith('placement.') && !i18n.te(key)) return key.slice('placement.'.length)
    return i18n.t(key, params ?? {})
  }
}
