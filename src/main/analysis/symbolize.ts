/**
 * Call stacks of a recorded capture (`stack` records, format 1.3) as a person reads them: each frame's module and
 * offset turned into a function and a source line by llvm-symbolizer or addr2line where one is installed and the
 * module is still on this machine; module+offset otherwise. Shown in a resource's details, so a few dozen frames at
 * a time; results are cached per module and offset.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import type { StackFrame } from '../../shared/capture'
import type { SymbolizedFrame } from '../../shared/ipc'


/** Runs a symbolizer: its stdout, or null when it is missing or failed. */
export type ToolRunner = (tool: string, args: string[]) => string | null

const runTool: ToolRunner = (tool, args) => {
  try {
    return execFileSync(tool, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 16 << 20 })
  } catch {
    return null
  }
}

type Tool = 'llvm-symbolizer' | 'addr2line'

/**
 * A non-PIE ELF executable (ET_EXEC) is linked at a fixed address, and an offset from its load address is not an
 * address a symbolizer takes: such modules are shown as module+offset.
 */
function isFixedAddressElf(module: string): boolean {
  let fd: number | undefined
  try {
    fd = openSync(module, 'r')
    const head = Buffer.alloc(18)
    if (readSync(fd, head, 0, 18, 0) < 18) return false
    if (head.readUInt32BE(0) !== 0x7f454c46) return false
    const type = head[5] === 2 ? head.readUInt16BE(16) : head.readUInt16LE(16)
    return type === 2
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

export class Symbolizer {
  private tool: Tool | null | undefined
  private readonly cache = new Map<string, { symbol?: string; location?: string }>()

  constructor(private readonly run: ToolRunner = runTool) {}

  /** Which symbolizer this machine has, asked once. */
  private which(): Tool | null {
    if (this.tool === undefined) {
      this.tool = this.run('llvm-symbolizer', ['--version']) !== null ? 'llvm-symbolizer' : this.run('addr2line', ['--version']) !== null ? 'addr2line' : null
    }
    return this.tool
  }

  symbolize(frames: readonly StackFrame[]): SymbolizedFrame[] {
    const out: SymbolizedFrame[] = frames.map((f) => {
      const frame: SymbolizedFrame = {}
      if (typeof f.module === 'string') frame.module = f.module
      if (typeof f.offset === 'number' && Number.isSafeInteger(f.offset) && f.offset >= 0) frame.offset = f.offset
      if (typeof f.address === 'number') frame.address = f.address
      return frame
    })
    const tool = this.which()
    const byModule = new Map<string, number[]>()
    for (const frame of out) {
      if (frame.module === undefined || frame.offset === undefined || frame.offset === 0) continue
      const key = `${frame.module}\0${frame.offset}`
      if (this.cache.has(key)) continue
      const offsets = byModule.get(frame.module) ?? []
      if (!offsets.includes(frame.offset)) offsets.push(frame.offset)
      byModule.set(frame.module, offsets)
    }
    for (const [module, offsets] of byModule) {
      const results = tool && this.usable(module) ? this.lookUp(tool, module, offsets) : []
      offsets.forEach((offset, i) => this.cache.set(`${module}\0${offset}`, results[i] ?? {}))
    }
    for (const frame of out) {
      if (frame.module === undefined || frame.offset === undefined) continue
      Object.assign(frame, this.cache.get(`${frame.module}\0${frame.offset}`) ?? {})
    }
    return out
  }

  /** A module path from the capture is passed to a program: only an existing file by its absolute path. */
  private usable(module: string): boolean {
    if (!isAbsolute(module) || !existsSync(module)) return false
    try {
      return statSync(module).isFile() && !isFixedAddressElf(module)
    } catch {
      return false
    }
  }

  /** One symbolizer run for a module's offsets; the return address less one, so the call's line is found. */
  private lookUp(tool: Tool, module: string, offsets: number[]): { symbol?: string; location?: string }[] {
    const addresses = offsets.map((o) => `0x${(o - 1).toString(16)}`)
    if (tool === 'llvm-symbolizer') {
      const text = this.run('llvm-symbolizer', [`--obj=${module}`, '--no-inlines', '--demangle', ...addresses])
      if (text === null) return []
      return text
        .split(/\r?\n\r?\n/)
        .filter((block) => block.trim() !== '')
        .map((block) => parsePair(block.split(/\r?\n/)))
    }
    const text = this.run('addr2line', ['-f', '-C', '-e', module, ...addresses])
    if (text === null) return []
    const lines = text.split(/\r?\n/)
    return offsets.map((_, i) => parsePair(lines.slice(i * 2, i * 2 + 2)))
  }
}

/** A function line and a file:line line; "??" is unknown. */
function parsePair([fn, where]: string[]): { symbol?: string; location?: string } {
  const out: { symbol?: string; location?: string } = {}
  if (fn && fn.trim() !== '??') out.symbol = fn.trim()
  const location = where?.trim()
  if (location && !location.startsWith('??')) out.location = location
  return out
}
