/** English and Simplified Chinese: every string a person reads goes through these messages. */
import { createI18n } from 'vue-i18n'
import en from './en'
import zhCN from './zh-CN'

export const LANGUAGES = ['en', 'zh-CN'] as const
export type Language = (typeof LANGUAGES)[number]

export type Messages = typeof en

export function createAppI18n(locale: Language = 'en') {
  return createI18n<[Messages], Language, false>({
    legacy: false,
    locale,
    fallbackLocale: 'en',
    messages: { en, 'zh-CN': zhCN },
    missingWarn: false,
    fallbackWarn: false,
  })
}

export type AppI18n = ReturnType<typeof createAppI18n>
