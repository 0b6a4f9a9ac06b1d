/**
 * Hardware ray tracing as UE5 allocates it: a bottom-level acceleration structure (BLAS) for every loaded mesh,
 * built into an uncompacted buffer with a scratch buffer and compacted a couple of frames later (a new, smaller
 * buffer; the old one and the scratch released); skinned characters' BLAS rebuilt as they animate; the
 * top-level structure (TLAS) with its scratch and instance descriptors rebuilt every frame; shader binding
 * tables recreated when the number of hit-group records changes.
 */
import { KiB, MiB, roundUp } from '../../shared/units'
import type { AssetLibrary } from './assets'
import { SKIN_CACHE } from './kinds'
import type { Prng } from './prng'
import type { MeshListener } from './world'
import { BufferClass, type CaptureWriter } from './writer'

// CreateRayTracingBuffer: the acceleration-structure state, single-state, 256-byte aligned in its pool.
const ACCELERATION_STRUCTURE = new BufferClass({ usage: ['AccelerationStructure'], state: 'single', tag: 'RayTracing' })
// Build scratch: UAV in the default state mode, so multi-state, so the placed buffer pool.
const SCRATCH = new BufferClass({ usage: ['UnorderedAccess'], tag: 'RayTracing' })
// D3D12_RAYTRACING_INSTANCE_DESC: 64 bytes each, written by a compute pass.
const INSTANCE_DESCS = new BufferClass(
  { usage: ['Static', 'UnorderedAccess', 'ShaderResource', 'StructuredBuffer'], stride: 64, tag: 'RayTracing' },
)
// Shader records: 64-byte stride (D3D12_RAYTRACING_SHADER_TABLE_BYTE_ALIGNMENT), copied into, multi-state.
const SHADER_TABLE = new BufferClass(
  { usage: ['Static', 'ShaderResource'], stride: 64, state: 'multi', tag: 'RayTracing' },
)

const MIN_BLAS = 64 * KiB
const MAX_BLAS = 32 * MiB

interface Compaction {
  mesh: number
  frame: number
  uncompacted: number
  scratch: number
  compactedSize: number
}

interface Character {
  name: string
  blas: number
  skinCache: number
  size: number
  rebuildAt: number
}

const CHARACTERS = ['SK_Mannequin', 'SK_Guard_01', 'SK_Villager_03', 'SK_Wolf', 'SK_Horse_02', 'SK_Merchant']

export class RayTracingScene implements MeshListener {
  private readonly blas: Float64Array
  private readonly compactions: Compaction[] = []
  private tlas: number[] = []
  private shaderTables: { id: number; records: number }[] = []
  private readonly characters: Character[] = []
  private instances = 0
  private frameNumber = 0

  constructor(
    private readonly library: AssetLibrary,
    private readonly rng: Prng,
    private readonly characterCount: number,
  ) {
    this.blas = new Float64Array(library.meshes.length).fill(-1)
  }

  private blasSize(mesh: number): number {
    const triangles = this.library.meshes[mesh].lods[0].indices / 3
    return Math.min(MAX_BLAS, Math.max(MIN_BLAS, roundUp(Math.round(triangles * this.rng.range(90, 130)), 256)))
  }

  meshLoaded(out: CaptureWriter, mesh: number): void {
    const name = this.library.meshes[mesh].name
    const size = this.blasSize(mesh)
    const uncompacted = out.buffer(ACCELERATION_STRUCTURE, size, name + '.BLAS')
    const scratch = out.buffer(SCRATCH, roundUp(Math.round(size * this.rng.range(0.5, 0.8)), 256), 'BLAS.BuildScratch')
    this.blas[mesh] = uncompacted
    // Compaction reads the compacted size back after the build: two frames later.
    this.compactions.push(
      {
        mesh,
        frame: this.frameNumber + 2,
        uncompacted,
        scratch,
        compactedSize: Math.max(MIN_BLAS, roundUp(Math.round(size * this.rng.range(0.45, 0.65)), 256)),
      },
    )
  }

  meshUnloaded(out: CaptureWriter, mesh: number): void {
    const pending = this.compactions.findIndex((c) => c.mesh === mesh)
    if (pending >= 0) {
      out.release(this.compactions[pending].scratch)
      this.compactions.splice(pending, 1)
    }
    out.release(this.blas[mesh])
    this.blas[mesh] = -1
  }

  /** Before the frame's meshes load: builds started now are compacted two frames later. */
  beginFrame(frame: number): void {
    this.frameNumber = frame
  }

  /** The frame's ray tracing work: compactions due, characters' BLAS rebuilt, the TLAS rebuilt, shader tables. */
  frame(out: CaptureWriter, frame: number, instances: number, segments: number): void {
    const rng = this.rng
    while (this.compactions.length > 0 && this.compactions[0].frame <= frame) {
      const c = this.compactions.shift() as Compaction
      const name = this.library.meshes[c.mesh].name
      this.blas[c.mesh] = out.buffer(ACCELERATION_STRUCTURE, c.compactedSize, name + '.BLAS.Compacted')
      out.release(c.uncompacted)
      out.release(c.scratch)
    }

    if (this.characters.length < this.characterCount && (frame === 1 || rng.chance(0.01))) {
      const n = this.characters.length
      const name = CHARACTERS[n % CHARACTERS.length] + (n >= CHARACTERS.length ? '_' + n : '')
      const vertices = rng.int(20000, 90000)
      const size = roundUp(vertices * 52, 256)
      const skinCache = out.buffer(SKIN_CACHE, roundUp(vertices * 36, 16), name + '.SkinCache.Positions')
      this.characters.push(
        {
          name,
          blas: out.buffer(ACCELERATION_STRUCTURE, size, name + '.BLAS.Dynamic'),
          skinCache,
          size,
          rebuildAt: frame + rng.int(20, 90),
        },
      )
    }
    for (const c of this.characters) {
      // Refits run in place; a rebuild (LOD change, large deformation) allocates a new BLAS and frees the old.
      if (frame < c.rebuildAt) continue
      const scratch = out.buffer(SCRATCH, roundUp(Math.round(c.size * 0.6), 256), 'BLAS.BuildScratch')
      const next = out.buffer(ACCELERATION_STRUCTURE, c.size, c.name + '.BLAS.Dynamic')
      out.release(c.blas)
      out.release(scratch)
      c.blas = next
      c.rebuildAt = frame + rng.int(20, 90)
    }

    this.instances = instances + this.characters.length
    for (const id of this.tlas) out.release(id)
    const tlasSize = roundUp(this.instances * 128 + 64 * KiB, 256)
    this.tlas = [
      out.buffer(INSTANCE_DESCS, this.instances * 64, 'RayTracingScene.InstanceBuffer'),
      out.buffer(SCRATCH, roundUp(this.instances * 64 + 16 * KiB, 256), 'RayTracingScene.BuildScratch'),
      out.buffer(ACCELERATION_STRUCTURE, tlasSize, 'RayTracingScene.TLAS'),
    ]

    // One hit-group record per geometry segment and shader slot; the table is rebuilt when it no longer fits
    // or is less than half used.
    const records = segments * 2
    const tables = ['RayTracing.ShaderBindingTable', 'Lumen.HardwareRayTracing.ShaderBindingTable']
    for (const [i, name] of tables.entries()) {
      const table = this.shaderTables[i]
      if (table && records <= table.records && records * 2 > table.records) continue
      if (table) out.release(table.id)
      const capacity = roundUp(Math.ceil(records * 1.25), 256)
      this.shaderTables[i] = { id: out.buffer(SHADER_TABLE, capacity * 64, name), records: capacity }
    }
  }

  /** Every acceleration structure the TLAS references, and the TLAS itself: all used by every traced frame. */
  usedIds(into: Float64Array, at: number): number {
    let n = at
    for (const id of this.tlas) if (n < into.length) into[n++] = id
    for (const c of this.characters) if (n < into.length) into[n++] = c.blas
    for (let i = 0; i < this.blas.length && n < into.length; i++) if (this.blas[i] >= 0) into[n++] = this.blas[i]
    return n
  }
}
