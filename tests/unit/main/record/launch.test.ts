import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findLayerDir, LAYER_MANIFEST, LAYER_NAME, launchUnderLayer, layerEnv } from '../../../../src/main/record/launch'
import { defaultOutput, exitStatusOf } from '../../../../src/main/cli/record'

function layerFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'heapscope-layer-'))
  writeFileSync(join(dir, LAYER_MANIFEST), '{}')
  return dir
}

const processWithResources = process as { resourcesPath?: string }

describe('starting a program under the capture layer', () => {
  afterEach(() => {
    delete processWithResources.resourcesPath
  })

  it('finds the layer from HEAPSCOPE_LAYER_DIR, then the packaged resources, and says when it is not there', () => {
    const dir = layerFolder()
    expect(findLayerDir({ HEAPSCOPE_LAYER_DIR: dir })).toBe(dir)
    expect(findLayerDir({ HEAPSCOPE_LAYER_DIR: join(dir, 'nothing') })).toBeNull()
    const resources = mkdtempSync(join(tmpdir(), 'heapscope-resources-'))
    mkdirSync(join(resources, 'vulkan-layer'))
    writeFileSync(join(resources, 'vulkan-layer', LAYER_MANIFEST), '{}')
    processWithResources.resourcesPath = resources
    expect(findLayerDir({})).toBe(join(resources, 'vulkan-layer'))
  })

  it('asks the loader for the layer by name and points the layer at the output', () => {
    const env = layerEnv({
      layerDir: '/opt/layer',
      output: 'captures/run.hscap',
      cwd: '/home/me',
      framesFrom: 'submit',
      stacks: true,
      env: { VK_ADD_LAYER_PATH: '/other', VK_INSTANCE_LAYERS: `VK_LAYER_KHRONOS_validation${delimiter}${LAYER_NAME}`, HEAPSCOPE_CAPTURE: '1', PATH: '/bin' },
    })
    expect(env.VK_ADD_LAYER_PATH).toBe(`/opt/layer${delimiter}/other`)
    // named once, first, with the program's own layers after it
    expect(env.VK_INSTANCE_LAYERS).toBe(`${LAYER_NAME}${delimiter}VK_LAYER_KHRONOS_validation`)
    expect(env.HEAPSCOPE_CAPTURE_FILE).toBe('/home/me/captures/run.hscap')
    expect(env.HEAPSCOPE_FRAMES_FROM).toBe('submit')
    expect(env.HEAPSCOPE_STACKS).toBe('1')
    // the implicit manifest's switch is off, or the library would load twice
    expect(env.HEAPSCOPE_CAPTURE).toBeUndefined()
    expect(env.PATH).toBe('/bin')
    const plain = layerEnv({ layerDir: '/opt/layer', output: '/tmp/a.hscap', env: { HEAPSCOPE_FRAMES_FROM: 'present', HEAPSCOPE_STACKS: '1' } })
    expect(plain.HEAPSCOPE_FRAMES_FROM).toBeUndefined()
    expect(plain.HEAPSCOPE_STACKS).toBeUndefined()
    expect(plain.VK_INSTANCE_LAYERS).toBe(LAYER_NAME)
  })

  it('refuses to start a program when the layer is not built', () => {
    const empty = mkdtempSync(join(tmpdir(), 'heapscope-nolayer-'))
    expect(() => launchUnderLayer({ program: 'true', args: [], output: 'x.hscap', env: { HEAPSCOPE_LAYER_DIR: empty }, layerDir: undefined })).toThrow(
      /not built: run "npm run build:layer"/,
    )
    expect(() => launchUnderLayer({ program: 'true', args: [], output: 'x.hscap', layerDir: empty })).toThrow(/No Vulkan layer manifest/)
  })

  it('exits as a shell would and names captures after the program and the time', () => {
    expect(exitStatusOf(3, null)).toBe(3)
    expect(exitStatusOf(null, 'SIGKILL')).toBe(137)
    expect(exitStatusOf(null, 'SIGTERM')).toBe(143)
    expect(defaultOutput('/usr/bin/vkcube', new Date('2026-12-01T14:05:09Z'))).toBe('vkcube-20261201-140509.hscap')
    expect(defaultOutput('C:\\Games\\Game.exe'.split('\\').join('/'), new Date('2026-12-01T14:05:09Z'))).toBe('Game-20261201-140509.hscap')
  })
})
