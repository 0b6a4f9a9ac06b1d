/**
 * Starting a program under the HeapScope Vulkan capture layer (capture/vulkan-layer, docs/capture-vulkan.md): the
 * loader is pointed at the layer's folder and asked for the layer by name, and the layer is told where to write.
 * `heapscope record` and the app's live capture both start programs through this module.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process'
import { existsSync } from 'node:fs'
import { delimiter, dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The layer's name in its manifests (VK_INSTANCE_LAYERS). */
export const LAYER_NAME = 'VK_LAYER_HEAPSCOPE_capture'
/** The explicit manifest at the top of the layer's folder; the implicit one is in `implicit/`. */
export const LAYER_MANIFEST = 'VkLayer_heapscope_capture.json'

/** The environment variables the layer reads (docs/capture-vulkan.md). */
export const LAYER_ENV = {
  /** The capture file; `%p` in it becomes the process id. */
  file: 'HEAPSCOPE_CAPTURE_FILE',
  /** `submit`, `present`, or unset: submits are frames until the program first presents. */
  framesFrom: 'HEAPSCOPE_FRAMES_FROM',
  /** `1`: record the call stack of each allocation and resource creation. */
  stacks: 'HEAPSCOPE_STACKS',
  /** Override of the folder that holds the built layer and its manifests. */
  layerDir: 'HEAPSCOPE_LAYER_DIR',
} as const

export interface LaunchOptions {
  program: string
  args: readonly string[]
  output: string
  framesFrom?: 'submit' | 'present'
  stacks?: boolean
  layerDir?: string
  env?: NodeJS.ProcessEnv
  cwd?: string
  /** How the program's standard streams are connected; default: inherited from this process. */
  stdio?: StdioOptions
}

const hasManifest = (dir: string) => existsSync(join(dir, LAYER_MANIFEST))

/**
 * The folder of the built layer: HEAPSCOPE_LAYER_DIR when set; `<resourcesPath>/vulkan-layer` in a packaged app;
 * `out/vulkan-layer` of the checkout this module runs from (found upwards from its own file, so it works from the
 * sources and from the built `out/main`). Null when the layer is not built.
 */
export function findLayerDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const override = env[LAYER_ENV.layerDir]
  if (override) return hasManifest(override) ? resolve(override) : null
  const resourcesPath = (process as { resourcesPath?: string }).resourcesPath
  if (resourcesPath) {
    const packaged = join(resourcesPath, 'vulkan-layer')
    if (hasManifest(packaged)) return packaged
  }
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const candidate = join(dir, 'out', 'vulkan-layer')
    if (hasManifest(candidate)) return candidate
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

/** The environment a program needs to run under the layer and write `options.output`. */
export function layerEnv(options: Omit<LaunchOptions, 'program' | 'args'> & { layerDir: string }): NodeJS.ProcessEnv {
  const base = options.env ?? process.env
  const env: NodeJS.ProcessEnv = { ...base }
  const prepend = (key: string, value: string, separator: string) => {
    env[key] = base[key] ? `${value}${separator}${base[key]}` : value
  }
  prepend('VK_ADD_LAYER_PATH', options.layerDir, delimiter)
  const layers = (base.VK_INSTANCE_LAYERS ?? '').split(delimiter).filter((name) => name && name !== LAYER_NAME)
  env.VK_INSTANCE_LAYERS = [LAYER_NAME, ...layers].join(delimiter)
  env[LAYER_ENV.file] = resolve(options.cwd ?? process.cwd(), options.output)
  if (options.framesFrom) env[LAYER_ENV.framesFrom] = options.framesFrom
  else delete env[LAYER_ENV.framesFrom]
  if (options.stacks) env[LAYER_ENV.stacks] = '1'
  else delete env[LAYER_ENV.stacks]
  // the implicit layer would load the same library a second time
  delete env.HEAPSCOPE_CAPTURE
  return env
}

/**
 * Start `options.program` with the layer enabled, writing its capture to `options.output`. Throws when the layer
 * is not built (or `options.layerDir` holds no manifest); the program's own failure to start is the child's
 * `error` event, as with any spawn.
 */
export function launchUnderLayer(options: LaunchOptions): ChildProcess {
  const layerDir = options.layerDir ?? findLayerDir(options.env ?? process.env)
  if (!layerDir) {
    throw new Error(
      `The HeapScope Vulkan layer is not built: run "npm run build:layer" (it needs a C compiler, CMake and the Vulkan headers; the layer goes to out/vulkan-layer), or set ${LAYER_ENV.layerDir} to the folder holding ${LAYER_MANIFEST}`,
    )
  }
  if (!hasManifest(layerDir)) throw new Error(`No Vulkan layer manifest (${LAYER_MANIFEST}) in ${layerDir}`)
  const env = layerEnv({ ...options, layerDir: resolve(layerDir) })
  return spawn(options.program, [...options.args], { env, cwd: options.cwd, stdio: options.stdio ?? 'inherit' })
}
