/// <reference types="vite/client" />
import type { Api } from '../../shared/ipc'

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a browser, where the WebSocket client takes its place. */
    api?: Api
  }
}

declare module '*.vue' {
  import type { DefineComponent } from 'vue'
  const component: DefineComponent<object, object, unknown>
  export default component
}

export {}
