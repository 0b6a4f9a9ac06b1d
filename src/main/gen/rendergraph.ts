/**
 * One render-graph execution as RDG compiles it: passes in order, each transient resource created at the pass
 * that first writes it and kept alive until the last pass that reads it. Reused every frame: no allocation
 * per resource once its arrays have grown.
 */
import { TransientClass, type BufferClass, type CaptureWriter, type TextureClass } from './writer'

export type Handle = number

export class GraphBuilder {
  private classes: TransientClass[] = []
  private firsts = new Int32Array(256)
  private lasts = new Int32Array(256)
  private count = 0
  private passIndex = -1

  /** Begins the next pass and returns its index. */
  pass(): number {
    return ++this.passIndex
  }

  /** Several passes in a row; returns the index of the last. */
  passes(n: number): number {
    this.passIndex += n
    return this.passIndex
  }

  get passCount(): number {
    return this.passIndex + 1
  }

  get resourceCount(): number {
    return this.count
  }

  /** A resource first written by the current pass. */
  create(cls: TransientClass): Handle {
    if (this.passIndex < 0) throw new Error('a transient needs a pass to create it')
    if (this.count === this.firsts.length) {
      const firsts = new Int32Array(this.count * 2)
      const lasts = new Int32Array(this.count * 2)
      firsts.set(this.firsts)
      lasts.set(this.lasts)
      this.firsts = firsts
      this.lasts = lasts
    }
    this.classes[this.count] = cls
    this.firsts[this.count] = this.passIndex
    this.lasts[this.count] = this.passIndex
    return this.count++
  }

  /** The current pass reads (or writes again) these resources: they live at least until here. */
  read(...handles: Handle[]): void {
    for (const handle of handles) if (this.lasts[handle] < this.passIndex) this.lasts[handle] = this.passIndex
  }

  /** The graph as built so far, as arrays to replay; the builder starts over. */
  compile(): CompiledGraph {
    const graph: CompiledGraph = {
      classes: this.classes.slice(0, this.count),
      firsts: this.firsts.slice(0, this.count),
      lasts: this.lasts.slice(0, this.count),
      lines: [],
      passes: this.passCount,
    }
    for (let i = 0; i < this.count; i++) graph.lines.push(this.classes[i].rest(this.firsts[i], this.lasts[i]))
    this.count = 0
    this.passIndex = -1
    return graph
  }
}

export interface CompiledGraph {
  classes: TransientClass[]
  firsts: Int32Array
  lasts: Int32Array
  /** Each transient's line after its id. */
  lines: Uint8Array[]
  passes: number
}

/** Writes one graph execution: `graph`, its transients in creation order, `endgraph`. */
export function emitGraph(out: CaptureWriter, name: string, graph: CompiledGraph): void {
  out.graph(name)
  const lines = graph.lines
  for (let i = 0; i < lines.length; i++) out.transient(lines[i])
  out.endgraph(graph.passes)
}

/**
 * The transient classes of one renderer, made once per (name, desc) and kept: a graph at a fixed resolution
 * repeats the same descs every frame, as RDG's placed-resource cache expects.
 */
export class TransientCatalog {
  private readonly classes = new Map<string, TransientClass>()

  /** Whether a texture's line carries the driver's size: a stable choice per resource name. */
  constructor(private readonly driverSizes: (name: string) => boolean) {}

  texture(name: string, cls: TextureClass, width: number, height: number, depth = 1, mips = 1): TransientClass {
    const w = Math.max(1, Math.round(width))
    const h = Math.max(1, Math.round(height))
    const k = cls.kind
    const key = `${name}|${k.format}|${k.dim}|${k.flags.join()}|${k.samples}|${w}x${h}x${depth}x${mips}`
    let out = this.classes.get(key)
    if (!out) {
      out = new TransientClass(
        name,
        { kind: 'texture', cls, width: w, height: h, depth, mips, driver: this.driverSizes(name) },
      )
      this.classes.set(key, out)
    }
    return out
  }

  buffer(name: string, cls: BufferClass, size: number): TransientClass {
    const key = name + '|' + cls.desc + '|' + size
    let out = this.classes.get(key)
    if (!out) {
      out = new TransientClass(name, { kind: 'buffer', cls, size })
      this.classes.set(key, out)
    }
    return out
  }

  get size(): number {
    return this.classes.size
  }
}
