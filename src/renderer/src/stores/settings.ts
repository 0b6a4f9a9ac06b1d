/**
 * Settings: theme, language and the config overrides last used for what-if runs, kept by the host (a file in
 * the user data folder, or memory in the browser host). Changes show at once and are saved in the background.
 */
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import type { Settings } from '../../../shared/ipc'
import { useApi } from '../api'
import { THEMES, type ChartTheme, type ThemeName } from '../lib/palette'

export type ThemeChoice = Settings['theme']
export type LanguageChoice = Settings['language']

/** The system's preference, when the theme follows it. */
function systemTheme(): ThemeName {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: light)').matches ? 'light' : 'dark'
}

export const useSettingsStore = defineStore('settings', () => {
  const theme = ref<ThemeChoice>('dark')
  const language = ref<LanguageChoice>('en')
  const configOverrides = shallowRef<Record<string, string>>({})
  /** Bumped when the system theme changes, so `effectiveTheme` follows it. */
  const systemChanged = ref(0)
  const loaded = ref(false)

  const effectiveTheme = computed<ThemeName>(() => {
    void systemChanged.value
    return theme.value === 'system' ? systemTheme() : theme.value
  })
  const chartTheme = computed<ChartTheme>(() => THEMES[effectiveTheme.value])

  function apply(settings: Settings): void {
    theme.value = settings.theme
    language.value = settings.language
    configOverrides.value = { ...settings.configOverrides }
  }

  async function init(): Promise<void> {
    try {
      apply(await useApi().settings())
    } catch {
      // a host without settings: keep the defaults
    }
    loaded.value = true
    window.matchMedia?.('(prefers-color-scheme: light)').addEventListener?.('change', () => systemChanged.value++)
  }

  async function save(patch: Partial<Omit<Settings, 'version'>>): Promise<void> {
    try {
      apply(await useApi().updateSettings(patch))
    } catch {
      // saving is a convenience: what is on screen already changed
    }
  }

  function setTheme(next: ThemeChoice): Promise<void> {
    theme.value = next
    return save({ theme: next })
  }

  function toggleTheme(): Promise<void> {
    return setTheme(effectiveTheme.value === 'dark' ? 'light' : 'dark')
  }

  function setLanguage(next: LanguageChoice): Promise<void> {
    language.value = next
    return save({ language: next })
  }

  function setConfigOverrides(next: Record<string, string>): Promise<void> {
    configOverrides.value = { ...next }
    return save({ configOverrides: next })
  }

  return {
    theme,
    language,
    configOverrides,
    loaded,
    effectiveTheme,
    chartTheme,
    init,
    setTheme,
    toggleTheme,
    setLanguage,
    setConfigOverrides,
  }
})
