/**
 * The IPC contract between the renderer and a host (the Electron main process, or the browser host over a
 * WebSocket). Channels are `domain:verb`; every payload type is here; `Api` is what `window.api` offers,
 * identical for both hosts. The renderer pulls what it shows; pushes are for progress only.
 */
export * from './channels'
export * from './load'
export * from './run'
export * from './series'
export * from './snapshot'
export * from './checks'
export * from './compare'
export * from './search'
export * from './playback'
export * from './record'
export * from './history'
