import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { setApi } from '../../../../src/renderer/src/api'
import { useSettingsStore } from '../../../../src/renderer/src/stores/settings'
import { FakeHost } from '../fakeHost'

let host: FakeHost

beforeEach(() => {
  setActivePinia(createPinia())
  host = new FakeHost()
  setApi(host)
})

describe('settings store', () => {
  it('reads the host settings and saves each change', async () => {
    const settings = useSettingsStore()
    host.settingsValue = { version: 1, theme: 'light', language: 'zh-CN', configOverrides: { 'bufferPool.size': '8MiB' } }
    await settings.init()
    expect([settings.theme, settings.language, settings.effectiveTheme]).toEqual(['light', 'zh-CN', 'light'])
    expect(settings.chartTheme.name).toBe('light')
    await settings.toggleTheme()
    expect(settings.effectiveTheme).toBe('dark')
    await settings.setLanguage('en')
    expect(host.saved).toEqual([{ theme: 'dark' }, { language: 'en' }])
  })
})
