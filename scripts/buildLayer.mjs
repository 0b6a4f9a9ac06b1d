#!/usr/bin/env node
// `npm run build:layer`: the Vulkan capture layer (capture/vulkan-layer) built with CMake into out/vulkan-layer/:
// the library, the explicit manifest beside it, the implicit one in implicit/, and the offscreen test program in
// tests/. With --optional (what `npm run build` passes), a machine without CMake, a C compiler or the Vulkan
// headers gets a one-line notice instead of a failure.
import { spawnSync } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const optional = process.argv.includes('--optional')
const source = join(root, 'capture', 'vulkan-layer')
const build = join(root, 'out', 'vulkan-layer-build')
const prefix = join(root, 'out', 'vulkan-layer')

function run(args, quiet) {
  const result = spawnSync('cmake', args, { stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' })
  if (result.error) return { ok: false, why: result.error.code === 'ENOENT' ? 'CMake is not installed' : result.error.message }
  if (result.status !== 0) {
    const log = `${result.stdout ?? ''}${result.stderr ?? ''}`
    const why = /Could NOT find Vulkan|Vulkan/i.test(log)
      ? 'the Vulkan headers and loader are not installed (Debian: libvulkan-dev)'
      : /CMAKE_C_COMPILER|No CMAKE_C_COMPILER|compiler/i.test(log)
        ? 'no C compiler was found'
        : `cmake ${args[0]} failed`
    return { ok: false, why, log }
  }
  return { ok: true }
}

function fail(step) {
  if (optional) {
    console.log(`Vulkan capture layer not built: ${step.why} (npm run build:layer builds it; see docs/capture-vulkan.md)`)
    process.exit(0)
  }
  if (step.log) process.stderr.write(step.log)
  console.error(`build:layer: ${step.why}`)
  process.exit(1)
}

const configure = run(['-S', source, '-B', build, '-DCMAKE_BUILD_TYPE=Release'], true)
if (!configure.ok) fail(configure)
const compile = run(['--build', build, '--config', 'Release'], optional)
if (!compile.ok) fail(compile)
const install = run(['--install', build, '--config', 'Release', '--prefix', prefix], true)
if (!install.ok) fail(install)
console.log(`Vulkan capture layer built into ${prefix}`)
