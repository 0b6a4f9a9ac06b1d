/**
 * An open world streamed around a moving camera, as World Partition and the texture streamer do it: grid
 * cells load and unload with the distance, each cell places meshes from its biome, a mesh's buffers exist while
 * any loaded cell uses it, and each texture is recreated with more or fewer mips as the camera approaches or
 * leaves (the streamer allocates the new mip chain, copies, releases the old one), within a streaming pool.
 * Memory is bounded by the loaded area, whatever the number of frames.
 */
import type { AssetLibrary } from './assets'
import { MESH_INDEX16, MESH_INDEX32, MESH_VERTEX, MESH_VERTEX_SRV, textureClass } from './kinds'
import { hash32, Prng } from './prng'
import type { CaptureWriter, TextureClass } from './writer'

export interface WorldOptions {
  /** World Partition cell edge, metres. */
  cellSize: number
  /** Cells whose centre is within this distance are loaded, metres. */
  loadRadius: number
  meshesPerCell: [number, number]
  /** Texture streaming pool, bytes: above it the streamer drops a mip everywhere. */
  streamingPool: number
  /** Mip chains reallocated per frame at most. */
  updatesPerFrame: number
  /** Cells loaded per frame at most once the world around the start is in (during the loading screen, 4). */
  cellsPerFrame: number
  /** Distance, per metre of a mesh's size, at which its textures want full resolution; each doubling drops a mip. */
  fullResolutionDistance: number
  /** Camera speed, m/s, mean of its phases (walk, run, vehicle). */
  speed: number
}

const NO_ID = -1
const MAX_LODS = 5
const BUFFERS_PER_LOD = 5
const MIN_RESIDENT_MIPS = 7
/** Priority classes of the streamer: the octave of a texture's distance ratio, from 2^-4 to 2^11 and beyond. */
const OCTAVES = 16

function octaveOf(ratio: number): number {
  const o = Math.ceil(Math.log2(ratio)) + 4
  return o < 0 ? 0 : o >= OCTAVES ? OCTAVES - 1 : o
}
/** 4^-k for the mips a chain can drop. */
const QUARTER_POWERS = Float64Array.from({ length: 16 }, (_, k) => 4 ** -k)
const LOADING_CELLS_PER_FRAME = 4
const MAX_UPLOAD_PER_FRAME = 48 * 1024 * 1024
const STREAMABLE: TextureClass[] = []
// Whole-scene shadow caches of stationary lights: a depth target each, a cube for point lights.
const SPOT_SHADOW = textureClass('D32_FLOAT', ['DepthStencilTargetable', 'ShaderResource'], 'Shadows')
const POINT_SHADOW = textureClass('D16_UNORM', ['DepthStencilTargetable', 'ShaderResource'], 'Shadows', 'cube')

function streamableClass(format: string): TextureClass {
  for (const cls of STREAMABLE) if (cls.kind.format === format) return cls
  const cls = textureClass(format, ['ShaderResource', 'Streamable'], 'Textures')
  STREAMABLE.push(cls)
  return cls
}

interface Cell {
  key: number
  x: number
  y: number
  meshes: number[]
  /** Cached shadow maps of the cell's stationary lights: committed depth targets, drawn while the cell is. */
  shadowMaps: number[]
  /** Distance from the camera at this frame, metres, and the mesh LOD it asks for (0 up to 40 m). */
  distance: number
  lod: number
  visible: boolean
}

function cellKey(cx: number, cy: number): number {
  return (cx + 32768) * 65536 + (cy + 32768)
}

/** Told when a mesh's buffers come and go (ray tracing builds a BLAS for each). */
export interface MeshListener {
  meshLoaded(out: CaptureWriter, mesh: number): void
  meshUnloaded(out: CaptureWriter, mesh: number): void
}

export class StreamingWorld {
  meshListener: MeshListener | undefined
  cameraX = 0
  cameraY = 0
  heading: number
  private speedPhase = 1
  private phaseFrames = 0
  private readonly cells = new Map<number, Cell>()
  private readonly meshRefs: Int32Array
  private readonly meshIds: Float64Array
  private readonly textureRefs: Int32Array
  private readonly textureIds: Float64Array
  private readonly textureMips: Int8Array
  private readonly textureWanted: Int8Array
  private readonly textureStamp: Int32Array
  private readonly fullMips: Int8Array
  private readonly fullBytes: Float64Array
  /** Loaded textures as a dense list, and each one's place in it. */
  private readonly loaded: Int32Array
  private readonly loadedAt: Int32Array
  private loadedCount = 0
  private cursor = 0
  private frame = 0
  private loading = true
  private readonly textureScore: Float64Array
  private readonly order: Int32Array
  private readonly octaveCounts = new Int32Array(OCTAVES)
  /** Loaded textures whose resident mips differ from the wanted ones, as of the last evaluation. */
  private pendingUpdates = 0
  private readonly useStamp: Float64Array
  private stamp = 0
  /** Texel bytes of the resident mip chains, and of the wanted ones before they were fitted to the pool. */
  residentTextureBytes = 0
  wantedTextureBytes = 0
  /** Bytes the streamer uploaded this frame (new mips), and how many chains it reallocated. */
  uploadedBytes = 0
  updates = 0
  /** What the frame draws, as ids, and whether it has to be collected again. */
  private drawn = new Float64Array(1024)
  private drawnCount = 0
  private drawnDirty = true

  constructor(
    private readonly library: AssetLibrary,
    private readonly seed: number,
    private readonly options: WorldOptions,
    private readonly rng: Prng,
  ) {
    this.meshRefs = new Int32Array(library.meshes.length)
    this.meshIds = new Float64Array(library.meshes.length * MAX_LODS * BUFFERS_PER_LOD).fill(NO_ID)
    const n = library.textures.length
    this.textureRefs = new Int32Array(n)
    this.textureIds = new Float64Array(n).fill(NO_ID)
    this.textureMips = new Int8Array(n)
    this.textureWanted = new Int8Array(n)
    this.textureStamp = new Int32Array(n)
    this.fullMips = Int8Array.from(library.textures, (t) => t.mips)
    this.fullBytes = Float64Array.from(library.textures, (t) => t.bytes)
    this.loaded = new Int32Array(n)
    this.loadedAt = new Int32Array(n)
    this.textureScore = new Float64Array(n)
    this.order = new Int32Array(n)
    this.useStamp = new Float64Array(n + library.meshes.length)
    this.heading = rng.range(0, Math.PI * 2)
  }

  get loadedCells(): number {
    return this.cells.size
  }

  /** Meshes with their buffers alive. */
  get loadedMeshes(): number {
    let n = 0
    for (let i = 0; i < this.meshRefs.length; i++) if (this.meshRefs[i] > 0) n++
    return n
  }

  /**
   * One frame: move, load and unload cells, stream mips. Until the cells around the start are all in, the
   * world is behind a loading screen: the camera waits and cells and mips stream in at a loading pace.
   */
  step(out: CaptureWriter, dt: number): void {
    this.uploadedBytes = 0
    this.updates = 0
    if (!this.loading) this.move(dt)
    // World Partition re-evaluates its streaming sources every few frames, the texture streamer its wanted mips
    // every eight (it walks its textures incrementally; at 60 frames a second that is every 133 ms).
    const tick = this.frame++ & 7
    if (this.loading || (tick & 3) === 0) this.streamCells(out)
    this.streamTextures(out, this.loading || tick === 2)
  }

  /** Whether the loading screen is still up. */
  get isLoading(): boolean {
    return this.loading
  }

  private move(dt: number): void {
    const rng = this.rng
    if (--this.phaseFrames <= 0) {
      // Walking, running, driving: phases of a few seconds each.
      this.speedPhase = [0.4, 1, 2.5][rng.weighted([3, 4, 2])]
      this.phaseFrames = rng.int(120, 900)
    }
    this.heading += rng.around(0, 0.02)
    const v = this.options.speed * this.speedPhase
    this.cameraX += Math.cos(this.heading) * v * dt
    this.cameraY += Math.sin(this.heading) * v * dt
  }

  private streamCells(out: CaptureWriter): void {
    const { cellSize, loadRadius } = this.options
    const cx0 = Math.floor(this.cameraX / cellSize)
    const cy0 = Math.floor(this.cameraY / cellSize)
    const reach = Math.ceil(loadRadius / cellSize) + 1
    const unloadRadius = loadRadius + cellSize
    const cosH = Math.cos(this.heading)
    const sinH = Math.sin(this.heading)
    for (const cell of this.cells.values()) {
      const dx = (cell.x + 0.5) * cellSize - this.cameraX
      const dy = (cell.y + 0.5) * cellSize - this.cameraY
      cell.distance = Math.sqrt(dx * dx + dy * dy)
      if (cell.distance > unloadRadius) {
        this.unloadCell(out, cell)
        continue
      }
      // In the view frustum (about 130° with the margin for shadow casters), or the cell around the camera.
      const visible = cell.distance < cellSize * 0.75 || (dx * cosH + dy * sinH) / cell.distance > 0.4
      const lod = Math.max(0, Math.floor(Math.log2(Math.max(1, cell.distance / 40))))
      // What is drawn changes when a cell comes into view or leaves it, or switches LOD.
      if (visible !== cell.visible || lod !== cell.lod) this.drawnDirty = true
      cell.visible = visible
      cell.lod = lod
    }
    const perFrame = this.loading ? LOADING_CELLS_PER_FRAME : this.options.cellsPerFrame
    let budget = perFrame
    // Nearest missing cells first, within the load radius.
    for (let ring = 0; ring <= reach && budget > 0; ring++) {
      for (let cx = cx0 - ring; cx <= cx0 + ring && budget > 0; cx++) {
        for (let cy = cy0 - ring; cy <= cy0 + ring && budget > 0; cy++) {
          if (Math.max(Math.abs(cx - cx0), Math.abs(cy - cy0)) !== ring) continue
          const key = cellKey(cx, cy)
          if (this.cells.has(key)) continue
          const dx = (cx + 0.5) * cellSize - this.cameraX
          const dy = (cy + 0.5) * cellSize - this.cameraY
          const distance = Math.sqrt(dx * dx + dy * dy)
          if (distance > loadRadius) continue
          this.loadCell(out, cx, cy, distance)
          budget--
        }
      }
    }
    // Nothing left to load within the radius: the loading screen comes down.
    if (this.loading && budget === perFrame) this.loading = false
  }

  private loadCell(out: CaptureWriter, x: number, y: number, distance: number): void {
    this.drawnDirty = true
    const rng = new Prng(hash32(this.seed, x, y))
    // Biomes change over regions of 4×4 cells.
    const region = hash32(this.seed ^ 0xb10e, Math.floor(x / 4), Math.floor(y / 4))
    const biome = this.library.biomes[region % this.library.biomes.length]
    const [lo, hi] = this.options.meshesPerCell
    const meshes: number[] = []
    const count = rng.int(lo, hi)
    for (let i = 0; i < count; i++) {
      const mesh = biome.meshes[Math.floor(Math.pow(rng.float(), 1.25) * biome.meshes.length)]
      if (meshes.includes(mesh)) continue
      meshes.push(mesh)
      this.acquireMesh(out, mesh)
    }
    const shadowMaps: number[] = []
    const lights = rng.weighted([3, 4, 2, 1])
    for (let i = 0; i < lights; i++) {
      const point = rng.chance(0.4)
      const name = `ShadowDepthCache.${point ? 'PointLight' : 'SpotLight'}_${x}_${y}_${i}`
      shadowMaps.push(
        point
          ? out.texture(POINT_SHADOW, 512, 512, 1, 1, name, rng.chance(0.5))
          : out.texture(
            SPOT_SHADOW, rng.chance(0.7) ? 1024 : 2048, rng.chance(0.7) ? 1024 : 2048, 1, 1, name, rng.chance(0.5),
          ),
      )
    }
    const lod = Math.max(0, Math.floor(Math.log2(Math.max(1, distance / 40))))
    this.cells.set(cellKey(x, y), { key: cellKey(x, y), x, y, meshes, shadowMaps, distance, lod, visible: true })
  }

  private unloadCell(out: CaptureWriter, cell: Cell): void {
    this.drawnDirty = true
    this.cells.delete(cell.key)
    for (const id of cell.shadowMaps) out.release(id)
    for (const mesh of cell.meshes) this.releaseMesh(out, mesh)
  }

  private acquireMesh(out: CaptureWriter, index: number): void {
    const mesh = this.library.meshes[index]
    for (const texture of mesh.textures) this.acquireTexture(out, texture)
    if (this.meshRefs[index]++ > 0) return
    const base = index * MAX_LODS * BUFFERS_PER_LOD
    for (let lod = 0; lod < mesh.lods.length && lod < MAX_LODS; lod++) {
      const { vertices, indices } = mesh.lods[lod]
      const prefix = lod === 0 ? mesh.name : mesh.name + '.LOD' + lod
      const at = base + lod * BUFFERS_PER_LOD
      // FPositionVertexBuffer, FStaticMeshVertexBuffer (tangents, then texture coordinates), FColorVertexBuffer,
      // FRawStaticIndexBuffer: 16-bit indices unless the LOD has more than 65535 vertices.
      this.meshIds[at] = out.buffer(MESH_VERTEX, vertices * 12, prefix + '.VB')
      this.meshIds[at + 1] = out.buffer(
        MESH_VERTEX_SRV,
        vertices * (mesh.highPrecisionTangents ? 16 : 8),
        prefix + '.TangentsVB',
      )
      this.meshIds[at + 2] = out.buffer(MESH_VERTEX_SRV, vertices * mesh.uvs * 4, prefix + '.TexCoordsVB')
      if (mesh.colors) this.meshIds[at + 3] = out.buffer(MESH_VERTEX, vertices * 4, prefix + '.ColorVB')
      const wide = vertices > 65535
      this.meshIds[at + 4] = out.buffer(wide ? MESH_INDEX32 : MESH_INDEX16, indices * (wide ? 4 : 2), prefix + '.IB')
    }
    this.meshListener?.meshLoaded(out, index)
  }

  private releaseMesh(out: CaptureWriter, index: number): void {
    const mesh = this.library.meshes[index]
    if (--this.meshRefs[index] === 0) {
      this.meshListener?.meshUnloaded(out, index)
      const base = index * MAX_LODS * BUFFERS_PER_LOD
      for (let i = 0; i < MAX_LODS * BUFFERS_PER_LOD; i++) {
        if (this.meshIds[base + i] !== NO_ID) {
          out.release(this.meshIds[base + i])
          this.meshIds[base + i] = NO_ID
        }
      }
    }
    for (const texture of mesh.textures) this.releaseTexture(out, texture)
  }

  private acquireTexture(out: CaptureWriter, index: number): void {
    if (this.textureRefs[index]++ > 0) return
    this.loadedAt[index] = this.loadedCount
    this.loaded[this.loadedCount++] = index
    this.textureWanted[index] = Math.min(this.fullMips[index], MIN_RESIDENT_MIPS)
    // Loading brings the mips below the streaming threshold; the streamer adds the rest later.
    const asset = this.library.textures[index]
    this.allocateMips(out, index, Math.min(asset.mips, MIN_RESIDENT_MIPS))
  }

  private releaseTexture(out: CaptureWriter, index: number): void {
    if (--this.textureRefs[index] > 0) return
    const at = this.loadedAt[index]
    const moved = this.loaded[--this.loadedCount]
    this.loaded[at] = moved
    this.loadedAt[moved] = at
    out.release(this.textureIds[index])
    this.residentTextureBytes -= this.chainBytes(index, this.textureMips[index])
    this.textureIds[index] = NO_ID
    this.textureMips[index] = 0
  }

  /** Texel bytes of a texture's top `mips` mips (a chain of fewer mips is the full chain of a smaller texture). */
  private chainBytes(index: number, mips: number): number {
    // Each mip dropped divides the chain by four.
    return this.fullBytes[index] * QUARTER_POWERS[this.fullMips[index] - mips]
  }

  private allocateMips(out: CaptureWriter, index: number, mips: number): void {
    const asset = this.library.textures[index]
    const drop = asset.mips - mips
    const width = Math.max(1, asset.width >> drop)
    const height = Math.max(1, asset.height >> drop)
    const old = this.textureIds[index]
    const oldMips = this.textureMips[index]
    this.textureIds[index] = out.texture(
      streamableClass(asset.format), width, height, 1, mips, asset.name, asset.driver,
    )
    if (old !== NO_ID && !this.drawnDirty) {
      // The drawn list names each texture once: the new chain takes the old one's place.
      for (let i = 0; i < this.drawnCount; i++) {
        if (this.drawn[i] === old) {
          this.drawn[i] = this.textureIds[index]
          break
        }
      }
    }
    if (old !== NO_ID) {
      out.release(old)
      this.residentTextureBytes -= this.chainBytes(index, oldMips)
    }
    this.residentTextureBytes += this.chainBytes(index, mips)
    // An upgrade uploads the new mips; a downgrade copies on the GPU.
    if (mips > oldMips) this.uploadedBytes += this.chainBytes(index, mips) - this.chainBytes(index, oldMips)
    this.textureMips[index] = mips
    this.updates++
  }

  private streamTextures(out: CaptureWriter, evaluate: boolean): void {
    const { streamingPool, fullResolutionDistance, updatesPerFrame, cellSize } = this.options
    if (evaluate) {
      const stamp = ++this.stamp
      const wanted = this.textureWanted
      const score = this.textureScore
      this.pendingUpdates = 0
      // The cell that sees a texture the biggest decides its wanted mips: a texel per pixel at a distance
      // proportional to the mesh's size, one mip less for each doubling beyond.
      for (const cell of this.cells.values()) {
        const distance = Math.max(1, cell.distance - cellSize / 2)
        for (const mesh of cell.meshes) {
          const asset = this.library.meshes[mesh]
          const ratio = distance / (fullResolutionDistance * asset.extent)
          const drop = Math.max(0, Math.ceil(Math.log2(ratio)))
          const textures = asset.textures
          for (let i = 0; i < textures.length; i++) {
            const t = textures[i]
            const full = this.fullMips[t]
            const w = Math.max(full < MIN_RESIDENT_MIPS ? full : MIN_RESIDENT_MIPS, full - drop)
            if (this.textureStamp[t] !== stamp) {
              this.textureStamp[t] = stamp
              wanted[t] = w
              score[t] = ratio
            } else {
              if (w > wanted[t]) wanted[t] = w
              if (ratio < score[t]) score[t] = ratio
            }
          }
        }
      }
      this.fitPool(streamingPool)
      for (let k = 0; k < this.loadedCount; k++) {
        const t = this.loaded[k]
        if (wanted[t] !== this.textureMips[t]) this.pendingUpdates++
      }
    }
    // The streamer spreads its work over frames, resuming its walk over the loaded textures where it stopped:
    // so many reallocations a frame (four times as many behind the loading screen), and no more new mips than
    // its temporary memory allows (r.Streaming.MaxTempMemoryAllowed); dropping mips uploads nothing.
    let budget = this.loading ? updatesPerFrame * 4 : updatesPerFrame
    const count = this.loadedCount
    for (let k = 0; k < count && budget > 0 && this.pendingUpdates > 0; k++) {
      if (this.cursor >= this.loadedCount) this.cursor = 0
      const t = this.loaded[this.cursor++]
      const wanted = this.textureWanted[t]
      if (wanted === this.textureMips[t]) continue
      // Out of upload memory for this frame: the rest waits for the next one.
      if (wanted > this.textureMips[t] && this.uploadedBytes >= MAX_UPLOAD_PER_FRAME) break
      this.allocateMips(out, t, wanted)
      this.pendingUpdates--
      budget--
    }
  }

  /**
   * The wanted mips of all loaded textures may not fit the streaming pool: then, as the streamer does by
   * priority, the textures seen smallest give up a mip first, pass after pass, until the wanted total fits.
   */
  private fitPool(pool: number): void {
    const wanted = this.textureWanted
    const count = this.loadedCount
    let total = 0
    for (let k = 0; k < count; k++) total += this.chainBytes(this.loaded[k], wanted[this.loaded[k]])
    this.wantedTextureBytes = total
    if (total <= pool) return
    // Least important first: a counting sort on the distance ratio's octave (the mips it would drop), then
    // load order; exact enough for a streamer, and linear.
    const score = this.textureScore
    const octaves = this.octaveCounts.fill(0)
    for (let k = 0; k < count; k++) octaves[octaveOf(score[this.loaded[k]])]++
    for (let o = OCTAVES - 2, at = octaves[OCTAVES - 1]; o >= 0; o--) {
      const n = octaves[o]
      octaves[o] = at
      at += n
    }
    octaves[OCTAVES - 1] = 0
    const order = this.order
    for (let k = 0; k < count; k++) {
      const t = this.loaded[k]
      order[octaves[octaveOf(score[t])]++] = t
    }
    for (let pass = 0; pass < 8 && total > pool; pass++) {
      for (let k = 0; k < count && total > pool; k++) {
        const t = order[k]
        const floor = Math.min(this.fullMips[t], MIN_RESIDENT_MIPS)
        if (wanted[t] <= floor) continue
        total -= this.chainBytes(t, wanted[t]) - this.chainBytes(t, wanted[t] - 1)
        wanted[t]--
      }
    }
  }

  /**
   * Writes `use` records for what this frame draws: `extra` (render targets, scene buffers: their own command
   * list), then the LOD each visible mesh shows with its textures and the visible cells' shadow maps, one
   * record per command list batch of about `batch` ids. The world's part is collected again only when what is
   * drawn changed.
   */
  use(out: CaptureWriter, extra: ArrayLike<number>, extraCount: number, batch = 96): void {
    for (let at = 0; at < extraCount; at += batch) out.use(extra, Math.min(batch, extraCount - at), at)
    if (this.drawnDirty) this.collectDrawn()
    for (let at = 0; at < this.drawnCount; at += batch) out.use(this.drawn, Math.min(batch, this.drawnCount - at), at)
  }

  private collectDrawn(): void {
    const stamp = ++this.stamp
    let n = 0
    const add = (id: number): void => {
      if (n === this.drawn.length) {
        const grown = new Float64Array(n * 2)
        grown.set(this.drawn)
        this.drawn = grown
      }
      this.drawn[n++] = id
    }
    const meshCount = this.library.meshes.length
    for (const cell of this.cells.values()) {
      if (!cell.visible) continue
      for (const id of cell.shadowMaps) add(id)
      for (const mesh of cell.meshes) {
        const asset = this.library.meshes[mesh]
        if (this.useStamp[mesh] !== stamp) {
          this.useStamp[mesh] = stamp
          const lod = Math.min(asset.lods.length - 1, cell.lod)
          const at = (mesh * MAX_LODS + lod) * BUFFERS_PER_LOD
          for (let b = 0; b < BUFFERS_PER_LOD; b++) if (this.meshIds[at + b] !== NO_ID) add(this.meshIds[at + b])
        }
        for (const t of asset.textures) {
          if (this.useStamp[meshCount + t] === stamp || this.textureIds[t] === NO_ID) continue
          this.useStamp[meshCount + t] = stamp
          add(this.textureIds[t])
        }
      }
    }
    this.drawnCount = n
    this.drawnDirty = false
  }
}
