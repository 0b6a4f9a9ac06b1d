import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'

/** The packaged app's Content-Security-Policy, set in the built page only (the dev server injects styles). */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self' ws://127.0.0.1:*",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

function contentSecurityPolicy(): Plugin {
  return {
    name: 'heapscope-csp',
    apply: 'build',
    transformIndexHtml: (html) =>
      html.replace('<head>', `<head>\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />`),
  }
}

export default defineConfig({
  main: {
    build: {
      // zod and fzstd are bundled so the desktop app's entry and engine need nothing from node_modules (the
      // package holds only out/); commander too, so the CLI's start reads one chunk instead of resolving the
      // package and wrapping its seven CommonJS files as modules (about 25 ms of `heapscope --version`); ws stays
      // external, used only by the browser host in a checkout
      externalizeDeps: { exclude: ['zod', 'fzstd', 'commander'] },
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          host: resolve('src/main/host/serve.ts'),
          engineWorker: resolve('src/main/engine/worker.ts'),
          // a pipelined load's read, scan and store build (src/main/ingest/pipeline.ts)
          ingestWorker: resolve('src/main/ingest/pipeWorker.ts'),
          cli: resolve('src/main/cli/run.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // a sandboxed preload must be CommonJS
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    build: {
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
    plugins: [vue(), contentSecurityPolicy()],
  },
})
