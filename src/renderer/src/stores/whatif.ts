/**
 * What-if: every model config key with its default, the capture's value and the value run A was replayed
 * with, and which of those differ from the defaults; the user's edits (checked as the CLI's --config checks them),
 * which belong to the run they were typed on: another capture starts with none, and the overrides last re-run
 * with (remembered in settings) are offered, applied only when asked. Re-running opens the result as run B.
 */
import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef, watch } from 'vue'
import type { ConfigEntry } from '../../../shared/ipc'
import { CONFIG_KEYS, ConfigError, parseConfigValue } from '../../../shared/model'
import { useApi } from '../api'
import { useRunsStore } from './runs'
import { useSettingsStore } from './settings'

/**
 * A value for a config entry, checked as the CLI's --config checks it: the D3D12 model's keys by the shared
 * parser; other models' keys (a Vulkan run's) by what the entry says of itself (kind, allowed values).
 */
export function parseEntryValue(entry: Pick<ConfigEntry, 'key' | 'kind' | 'values'>, raw: string): number {
  if (entry.key in CONFIG_KEYS) return parseConfigValue(entry.key, raw)
  const text = raw.trim()
  if (entry.kind === 'bool' && /^(true|false|on|off|yes|no)$/i.test(text)) return /^(true|on|yes)$/i.test(text) ? 1 : 0
  const m = /^(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|K|M|G)?$/i.exec(text)
  if (!m) throw new ConfigError(`config ${entry.key}: "${raw}" is not a number`)
  const unit = (m[2] ?? 'B').toUpperCase()
  const value = Number(m[1]) * (unit.startsWith('K') ? 1024 : unit.startsWith('M') ? 1024 ** 2 : unit.startsWith('G') ? 1024 ** 3 : 1)
  if (!Number.isSafeInteger(value)) throw new ConfigError(`config ${entry.key}: ${raw} is not an integer`)
  if (entry.kind === 'bool' && value !== 0 && value !== 1) throw new ConfigError(`config ${entry.key}: ${raw} must be 0 or 1 (or true/false)`)
  if (entry.values && !entry.values.includes(value)) throw new ConfigError(`config ${entry.key}: ${raw} must be one of ${entry.values.join(', ')}`)
  return value
}

/** The key's group, for the table's sections: the part of the name before its last dot. */
export function configGroup(key: string): string {
  const dot = key.indexOf('.')
  return dot < 0 ? 'general' : key.slice(0, dot)
}

export const useWhatIfStore = defineStore('whatif', () => {
  const runs = useRunsStore()
  const settings = useSettingsStore()
  const entries = shallowRef<ConfigEntry[]>([])
  /** Values run B was replayed with, by key (when B is a run of the same app). */
  const otherValues = shallowRef<Record<string, number> | null>(null)
  /** Edits by the run they were typed on. */
  const editsByRun = ref<Record<string, Record<string, string>>>({})
  const edits = computed<Record<string, string>>(() => editsByRun.value[runs.current?.runId ?? ''] ?? {})
  const loading = ref(false)

  function setEdits(next: Record<string, string>): void {
    const id = runs.current?.runId
    if (id) editsByRun.value = { ...editsByRun.value, [id]: next }
  }
  const error = ref<string | null>(null)

  /** Each edited key's parse error, as the engine would report it. */
  const byKey = computed(() => new Map(entries.value.map((e) => [e.key, e])))
  const errors = computed<Record<string, string>>(() => {
    const out: Record<string, string> = {}
    for (const [key, raw] of Object.entries(edits.value)) {
      if (raw.trim() === '') continue
      const entry = byKey.value.get(key)
      // an edit remembered for a key this run's model does not have is left out, not an error
      if (!entry) continue
      try {
        parseEntryValue(entry, raw)
      } catch (err) {
        out[key] = err instanceof ConfigError ? err.message : String(err)
      }
    }
    return out
  })

  /** Edits that parse, as the rerun takes them. */
  const overrides = computed<Record<string, string>>(() => {
    const out: Record<string, string> = {}
    for (const [key, raw] of Object.entries(edits.value)) {
      if (raw.trim() !== '' && !errors.value[key] && byKey.value.has(key)) out[key] = raw.trim()
    }
    return out
  })

  /** Edits that change something: a value other than the one run A used. */
  const changed = computed(() =>
    entries.value.filter((e) => e.key in overrides.value && parseEntryValue(e, overrides.value[e.key]) !== e.value).map((e) => e.key),
  )
  const valid = computed(() => Object.keys(errors.value).length === 0)

  async function load(): Promise<void> {
    const run = runs.current
    entries.value = []
    otherValues.value = null
    if (!run) return
    loading.value = true
    try {
      const api = useApi()
      const list = await api.runConfig(run.runId)
      entries.value = markRaw(list)
      const other = runs.other
      if (other) {
        const b = await api.runConfig(other.runId)
        otherValues.value = Object.fromEntries(b.map((e) => [e.key, e.value]))
      }
      error.value = null
    } catch (err) {
      error.value = err instanceof Error ? err.message : String(err)
    } finally {
      loading.value = false
    }
  }

  /** Keys whose value in run A is not the model's default (from the capture's config or the run's overrides). */
  const fromDefaults = computed(() => entries.value.filter((e) => e.value !== e.default).map((e) => e.key))

  /** The overrides last re-run with (settings), for keys this run's model has and this run's edits do not set. */
  const remembered = computed<Record<string, string>>(() => {
    const out: Record<string, string> = {}
    for (const [key, value] of Object.entries(settings.configOverrides)) if (byKey.value.has(key) && edits.value[key] !== value) out[key] = value
    return out
  })

  function applyRemembered(): void {
    setEdits({ ...edits.value, ...remembered.value })
  }

  function setEdit(key: string, raw: string): void {
    setEdits({ ...edits.value, [key]: raw })
  }

  function resetEdit(key: string): void {
    const next = { ...edits.value }
    delete next[key]
    setEdits(next)
  }

  function resetAll(): void {
    setEdits({})
  }

  /** Replay run A with the edits; on success the result is run B and the overrides are remembered. */
  async function rerun(): Promise<boolean> {
    if (!valid.value || !runs.current) return false
    const config = overrides.value
    // remembered overrides of another model's keys (a D3D12 run's, when this one is Vulkan) stay
    const others = Object.fromEntries(Object.entries(settings.configOverrides).filter(([key]) => !byKey.value.has(key)))
    await settings.setConfigOverrides({ ...others, ...config })
    const ok = await runs.rerun(config)
    if (ok) await load()
    return ok
  }

  watch(
    () => `${runs.current?.runId ?? ''}|${runs.other?.runId ?? ''}`,
    () => void load(),
  )

  watch(
    () => runs.current?.runId,
    () => {
      // a closed run's edits go with it
      const open = new Set([runs.current?.runId, runs.other?.runId])
      const kept = Object.fromEntries(Object.entries(editsByRun.value).filter(([id]) => open.has(id)))
      if (Object.keys(kept).length !== Object.keys(editsByRun.value).length) editsByRun.value = kept
    },
  )

  return {
    entries,
    otherValues,
    edits,
    loading,
    error,
    errors,
    overrides,
    changed,
    valid,
    fromDefaults,
    remembered,
    load,
    setEdit,
    resetEdit,
    resetAll,
    applyRemembered,
    rerun,
  }
})
