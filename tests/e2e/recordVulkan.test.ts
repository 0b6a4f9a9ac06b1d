/**
 * Real programs recorded through the Vulkan capture layer with the built `heapscope record`, on Mesa's lavapipe:
 * the layer's offscreen test program, vkcube under Xvfb, and glmark2's OpenGL scenes through Zink (which turns GL
 * into Vulkan and sub-allocates like a real driver). Each capture is read back with `heapscope report --json` and
 * `heapscope check`. A program killed mid-run leaves a capture that reads up to its last frame. Skipped, with a
 * notice, only where the packages are missing (Debian: mesa-vulkan-drivers libvulkan-dev vulkan-tools glmark2-x11
 * xvfb xauth cmake gcc); the layer itself is built when it is not.
 */
import { execFile, execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import { CLI, RESULTS, ROOT, checkCapture, engineScript, openApp } from './browser'

/** The parts of `report --json` (docs/cli.md) these tests read. */
interface RunReport {
  frames: number
  partial: boolean
  warnings: Record<string, number>
  resources: { created: number; released: number; named: number; liveAtEnd: number }
  peak: { frame: number; bytes: number }
  vulkan?: Record<'allocations' | 'dedicatedAllocations' | 'binds' | 'bindsAtOffset' | 'sharedAllocations' | 'names' | 'stacks' | 'submits', number>
}

const run = promisify(execFile)
const LAYER = join(ROOT, 'out/vulkan-layer')
const OFFSCREEN = join(LAYER, 'tests/heapscope-offscreen')

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0
const lavapipe = () => existsSync('/usr/share/vulkan/icd.d') && readdirSync('/usr/share/vulkan/icd.d').some((f) => f.startsWith('lvp_icd'))
const missing = [
  ...['cmake', 'cc', 'xvfb-run', 'xauth', 'vkcube', 'glmark2'].filter((c) => !has(c)),
  ...(existsSync('/usr/include/vulkan/vk_layer.h') ? [] : ['libvulkan-dev']),
  ...(lavapipe() ? [] : ['mesa-vulkan-drivers']),
]
if (missing.length) console.warn(`record-vulkan: skipped, not installed: ${missing.join(', ')}`)

interface Recorded {
  status: number
  stdout: string
  report: RunReport
}

/** `heapscope record -o OUT … -- PROGRAM…`, under Xvfb when `display`; then `report --json` of what it wrote. */
async function record(name: string, options: string[], program: string[], display = false): Promise<Recorded & { file: string }> {
  const file = join(mkdtempSync(join(tmpdir(), 'heapscope-record-')), `${name}.hscap`)
  const args = [CLI, 'record', '-o', file, ...options, '--', ...program]
  const result = display
    ? spawnSync('xvfb-run', ['-a', process.execPath, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })
    : spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', timeout: 60_000 })
  if (result.status !== 0) throw new Error(`record ${name} exited ${result.status}: ${result.stderr}`)
  const report = JSON.parse((await run(process.execPath, [CLI, 'report', '--json', file], { cwd: ROOT })).stdout) as RunReport
  return { status: result.status, stdout: result.stdout, report, file }
}

describe.skipIf(missing.length > 0)('recording real Vulkan programs', () => {
  /** The offscreen program's capture with call stacks, for the app. */
  let withStacks = ''

  beforeAll(() => {
    if (!existsSync(join(ROOT, 'out/main/cli.js'))) throw new Error('out/main/cli.js is missing: run npm run build first')
    if (!existsSync(OFFSCREEN)) execFileSync(process.execPath, [join(ROOT, 'scripts/buildLayer.mjs')], { cwd: ROOT, stdio: 'inherit' })
  })

  it('records the offscreen program: sub-allocated buffers, a dedicated image, names and renames, stacks', async () => {
    const { stdout, report, file } = await record('offscreen', ['--stacks'], [OFFSCREEN, '30'])
    withStacks = file
    expect(stdout).toContain(`capture written to ${file}`)
    expect(stdout).toMatch(/31 frames, 5 buffers and images, 3 allocations \(2 binds at a non-zero offset\), 7 names, no warnings/)
    // 30 submits end 30 frames (no present: submits are frames); the records before the first are frame 0
    expect(report.frames).toBe(31)
    expect(report.warnings).toEqual({})
    expect(report.resources).toEqual({ created: 5, released: 5, named: 5, liveAtEnd: 0 })
    // lavapipe: one 2 GiB heap, one type; 128 KiB block + 256 KiB image + 1 MiB staging at the peak
    expect(report.peak.bytes).toBe(131072 + 262144 + 1048576)
    expect(report.vulkan).toMatchObject({ allocations: 3, dedicatedAllocations: 1, binds: 5, bindsAtOffset: 2, sharedAllocations: 1, names: 7, submits: 30 })
    expect(report.vulkan!.stacks).toBeGreaterThan(0)
    // every stack frame names a module that exists, the program's own among them
    const stacks = readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"e":"stack"')).map((l) => JSON.parse(l) as { frames: { module: string }[] })
    const modules = new Set(stacks.flatMap((s) => s.frames.map((f) => f.module)))
    expect(modules).toContain(OFFSCREEN)
    for (const m of modules) expect(existsSync(m)).toBe(true)
    expect(await checkCapture(file)).toEqual({ hazards: [], warnings: {}, warningList: [] })
    // the engine's details of buffer 1 symbolize where it was made: the program's main, at a line of offscreen.c
    const details = await engineScript(
      `import { loadCaptureFile } from './src/main/ingest/read.ts'
       import { VulkanReplay, vulkanConfigOf } from './src/main/analysis/vulkan/replay.ts'
       import { VulkanSnapshots } from './src/main/analysis/vulkan/snapshot.ts'
       const { store } = await loadCaptureFile(process.argv[1])
       const replay = await VulkanReplay.run(store, { config: vulkanConfigOf(store.header) })
       console.log(JSON.stringify(new VulkanSnapshots(replay).details('r', 5, 1)))`,
      file,
    )
    const stack = (JSON.parse(details) as { stack: { module: string; symbol?: string; location?: string }[] }).stack
    expect(stack[0]).toMatchObject({ module: OFFSCREEN, symbol: 'main', location: expect.stringMatching(/offscreen\.c:\d+/) })
  })

  it('records a program whose threads make, bind, name and destroy resources at once', async () => {
    // 8 threads × 50 buffers × 20 frames, each thread's batch bound side by side in one allocation of its own
    const { report, file } = await record('threads', ['--stacks'], [OFFSCREEN, '20', '0', '8'])
    const batches = 8 * 20
    expect(report.frames).toBe(21)
    expect(report.warnings).toEqual({})
    expect(report.resources).toEqual({ created: batches * 50 + 5, released: batches * 50 + 5, named: batches * 50 + 5, liveAtEnd: 0 })
    expect(report.vulkan).toMatchObject({
      allocations: batches + 3,
      binds: batches * 50 + 5,
      // all but each batch's first, and the main thread's two
      bindsAtOffset: batches * 49 + 2,
      sharedAllocations: batches + 1,
      names: batches * 50 + 7,
    })
    expect(await checkCapture(file)).toEqual({ hazards: [], warnings: {}, warningList: [] })
  })

  it('shows in the app where a resource was made', async () => {
    expect(withStacks).not.toBe('')
    const app = await openApp([withStacks])
    try {
      const page = app.page
      const inspector = page.getByTestId('inspector')
      await page.locator('[data-testid=timeline-chart] canvas').waitFor()
      // the middle of the run: the three buffers, the render target and the staging buffer are alive
      const box = (await page.getByTestId('timeline-chart').boundingBox())!
      await page.mouse.click(box.x + box.width * 0.5, box.y + box.height / 2)
      await expect.poll(() => inspector.getAttribute('data-rows')).toBe('5')
      await page.getByTestId('table-row').filter({ hasText: 'Mesh.IB' }).first().click()
      await page.getByTestId('resource-details').waitFor()
      const frames = await page.getByTestId('stack-frames').locator('li').allTextContents()
      expect(frames[0]).toMatch(/^main \(.*offscreen\.c:\d+/)
      expect(frames.at(-1)).toMatch(/^_start \(heapscope-offscreen\+0x[0-9a-f]+\)$/)
      await page.getByTestId('stack-frames').scrollIntoViewIfNeeded()
      await page.screenshot({ path: join(RESULTS, 'record-stack.png') })
      expect(app.errors, app.errors.join('\n')).toEqual([])
    } finally {
      await app.close()
    }
  })

  it('records vkcube: a frame per present, swapchain images as resources', async () => {
    const { report, file } = await record('vkcube', ['--frames-from', 'present'], ['vkcube', '--c', '200'], true)
    expect(report.frames).toBe(201)
    expect(report.warnings).toEqual({})
    const lines = readFileSync(file, 'utf8').split('\n')
    const swapchain = lines.filter((l) => l.includes('"swapchain":true'))
    expect(swapchain.length).toBeGreaterThanOrEqual(2)
    expect(report.vulkan!.allocations).toBeGreaterThan(0)
    expect(report.vulkan!.binds).toBeGreaterThan(0)
    expect(report.resources.created).toBeGreaterThan(swapchain.length)
    expect(await checkCapture(file)).toEqual({ hazards: [], warnings: {}, warningList: [] })
  })

  it('records glmark2 scenes through Zink: frames from submits, buffers sub-allocated inside shared memory', async () => {
    const scenes = ['build:duration=0.4', 'texture:duration=0.4', 'shading:duration=0.4', 'bump:duration=0.4']
    const { report, file } = await record(
      'glmark2-zink',
      [],
      ['env', 'LIBGL_ALWAYS_SOFTWARE=1', 'GALLIUM_DRIVER=zink', 'glmark2', '-s', '320x240', ...scenes.flatMap((s) => ['-b', s])],
      true,
    )
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]) as { recorder: { framesFrom: string } }
    expect(header.recorder.framesFrom).toBe('auto')
    expect(report.frames).toBeGreaterThan(20)
    expect(report.warnings).toEqual({})
    // Zink places many resources in one VkDeviceMemory, at non-zero offsets
    expect(report.vulkan!.bindsAtOffset).toBeGreaterThan(0)
    expect(report.vulkan!.sharedAllocations).toBeGreaterThan(0)
    expect(report.resources.created).toBeGreaterThan(report.vulkan!.allocations)
    expect(await checkCapture(file)).toEqual({ hazards: [], warnings: {}, warningList: [] })
  })

  it('records every program while HEAPSCOPE_CAPTURE=1 through the implicit manifest, none once disabled', () => {
    const data = mkdtempSync(join(tmpdir(), 'heapscope-xdg-'))
    const manifest = JSON.parse(readFileSync(join(LAYER, 'implicit/VkLayer_heapscope_capture.json'), 'utf8')) as { layer: { library_path: string } }
    // installed elsewhere, the manifest names the library by its absolute path
    manifest.layer.library_path = join(LAYER, 'implicit', manifest.layer.library_path)
    mkdirSync(join(data, 'vulkan/implicit_layer.d'), { recursive: true })
    writeFileSync(join(data, 'vulkan/implicit_layer.d/heapscope.json'), JSON.stringify(manifest))
    const attempt = (name: string, env: Record<string, string>) => {
      const file = join(data, `${name}.hscap`)
      const base: NodeJS.ProcessEnv = { ...process.env, XDG_DATA_HOME: data, HEAPSCOPE_CAPTURE_FILE: file }
      delete base.HEAPSCOPE_CAPTURE
      delete base.VK_INSTANCE_LAYERS
      execFileSync(OFFSCREEN, ['3'], { env: { ...base, ...env }, stdio: 'ignore' })
      return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('{"e":"frame"')).length : null
    }
    expect(attempt('on', { HEAPSCOPE_CAPTURE: '1' })).toBe(3)
    expect(attempt('disabled', { HEAPSCOPE_CAPTURE: '1', HEAPSCOPE_CAPTURE_DISABLE: '1' })).toBeNull()
    expect(attempt('off', {})).toBeNull()
  })

  it('says when a program made no Vulkan device, and exits as it did', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'heapscope-record-')), 'none.hscap')
    // a capture an earlier run left there is not this run's
    writeFileSync(file, '{"format":"heapscope-capture","version":1}\n')
    const result = spawnSync(process.execPath, [CLI, 'record', '-o', file, '--', 'sh', '-c', 'exit 3'], { cwd: ROOT, encoding: 'utf8' })
    expect(result.status).toBe(3)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('made no Vulkan device under the layer: no capture was written')
    const missing = spawnSync(process.execPath, [CLI, 'record', '-o', file, '--', 'no-such-program-here'], { cwd: ROOT, encoding: 'utf8' })
    expect(missing.status).toBe(127)
    expect(missing.stderr).toContain('cannot start no-such-program-here')
  })

  it('reads the capture of a program killed mid-run up to its last frame, and exits as the program did', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'heapscope-record-')), 'killed.hscap')
    const cli = spawn(process.execPath, [CLI, 'record', '-o', file, '--', OFFSCREEN, '1000000', '2'], { cwd: ROOT })
    let stdout = ''
    cli.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)))
    // wait for frames to reach the file, then kill the program (not heapscope) with a signal it cannot catch
    const frames = () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('{"e":"frame"')).length : 0)
    const deadline = Date.now() + 20_000
    while (frames() < 20 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    // the layer names the process it records in the header
    const header = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]) as { recorder: { pid: number } }
    expect(header.recorder.pid).not.toBe(cli.pid)
    process.kill(header.recorder.pid, 'SIGKILL')
    expect(await exited).toBe(128 + 9)
    expect(stdout).toContain(`capture written to ${file}`)
    const written = frames()
    expect(written).toBeGreaterThanOrEqual(20)
    const report = JSON.parse((await run(process.execPath, [CLI, 'report', '--json', file], { cwd: ROOT })).stdout) as RunReport
    expect(report.partial).toBe(false)
    expect(report.warnings).toEqual({})
    // each frame reached the file whole: every frame written is read, plus frame 0
    expect(report.frames).toBe(written + 1)
    // the program never released what it made before it was killed
    expect(report.resources.liveAtEnd).toBe(4)
  })
})
