/** The one Api the stores use: Electron's preload bridge when present, the browser host's socket otherwise. */
import type { Api } from '../../../shared/ipc'
import { createSocketApi } from './socket'

let api: Api | undefined

export function useApi(): Api {
  api ??= window.api ?? createSocketApi()
  return api
}

/** Tests put a fake host in place. */
export function setApi(next: Api | undefined): void {
  api = next
}
