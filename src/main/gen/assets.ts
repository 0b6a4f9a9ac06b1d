/**
 * A game's content library, the way an Unreal project names and builds it: static meshes (SM_) with LODs whose
 * vertex and index buffers follow the mesh's vertex count, materials with texture sets (T_…_D/_N/_ORM),
 * block-compressed, full mip chains, sizes from 256 to 8192. Deterministic for a seed.
 */
import { Prng } from './prng'
import { mipCount, texelBytes } from './textures'

const BIOMES: readonly { name: string; bases: readonly string[] }[] = [
  {
    name: 'Forest',
    bases: [
      'Tree_Oak', 'Tree_Pine', 'Tree_Birch', 'Bush_Hazel', 'Fern', 'Log_Mossy', 'Stump', 'Rock_Moss',
      'Mushroom_Cluster', 'Root_Large',
    ],
  },
  {
    name: 'Canyon',
    bases: [
      'Cliff', 'Rock', 'Boulder', 'Rock_Slab', 'Scree', 'Cactus', 'Dead_Tree', 'Rock_Arch', 'Pebbles', 'Cliff_Overhang',
    ],
  },
  {
    name: 'Village',
    bases: [
      'House_Wall', 'Roof_Thatch', 'Door_Wood', 'Window_Frame', 'Fence_Wood', 'Barrel', 'Crate', 'Cart', 'Well',
      'Lamp_Post', 'Market_Stall', 'Chimney',
    ],
  },
  {
    name: 'Ruins',
    bases: [
      'Ruin_Wall', 'Ruin_Pillar', 'Ruin_Arch', 'Statue_Broken', 'Debris_Stone', 'Stairs_Stone', 'Floor_Tile',
      'Column_Base', 'Rubble',
    ],
  },
  {
    name: 'Coast',
    bases: [
      'Rock_Coastal', 'Driftwood', 'Pier_Post', 'Boat_Wreck', 'Seaweed', 'Shell_Cluster', 'Dune_Grass', 'Buoy',
      'Net_Fishing',
    ],
  },
  {
    name: 'Industrial',
    bases: [
      'Pipe_Large', 'Scaffold', 'Container', 'Crane_Arm', 'Tank_Fuel', 'Catwalk', 'Generator', 'Cable_Spool', 'Girder',
      'Vent_Duct',
    ],
  },
]

export interface TextureAsset {
  name: string
  format: string
  width: number
  height: number
  /** Mips of the full chain. */
  mips: number
  /** Whether the capture carries the driver's size for it. */
  driver: boolean
  /** Bytes of the full chain (texels only), for the streamer's pool accounting. */
  bytes: number
}

export interface MeshLod {
  vertices: number
  indices: number
}

export interface MeshAsset {
  name: string
  lods: MeshLod[]
  /** Texture coordinate channels (half floats, 4 bytes each). */
  uvs: number
  highPrecisionTangents: boolean
  colors: boolean
  /** Bounding size in metres: a cliff or a house keeps its detail much farther away than a pebble. */
  extent: number
  /** Texture asset indices of its materials. */
  textures: number[]
}

export interface Biome {
  name: string
  meshes: number[]
}

export interface LibraryOptions {
  meshesPerBase: number
  /** Scales texture sizes: 1 for a PC title, 0.5 for a lighter project. */
  textureScale: number
}

function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n)
}

const TEXTURE_EDGES = [256, 512, 1024, 2048, 4096, 8192]
const EDGE_WEIGHTS = [3, 10, 30, 40, 15, 2]

export class AssetLibrary {
  readonly meshes: MeshAsset[] = []
  readonly textures: TextureAsset[] = []
  readonly biomes: Biome[] = []

  constructor(seed: number, options: LibraryOptions) {
    const rng = new Prng(seed ^ 0x5eed)
    for (const biome of BIOMES) {
      const meshes: number[] = []
      for (const base of biome.bases) {
        // Variants of one base share a texture set half the time (a kit), or have their own.
        let kitTextures = this.textureSet(rng, base, 1, options.textureScale)
        for (let variant = 1; variant <= options.meshesPerBase; variant++) {
          if (variant > 1 && rng.chance(0.5)) kitTextures = this.textureSet(rng, base, variant, options.textureScale)
          const textures = [...kitTextures]
          if (rng.chance(0.3)) textures.push(...this.detailSet(rng, biome.name))
          meshes.push(this.meshes.length)
          this.meshes.push(this.mesh(rng, `SM_${base}_${pad2(variant)}`, textures))
        }
      }
      this.biomes.push({ name: biome.name, meshes })
    }
  }

  private texture(rng: Prng, name: string, format: string, scale: number, edge?: number): number {
    const e = edge ?? Math.max(256, Math.min(8192, TEXTURE_EDGES[rng.weighted(EDGE_WEIGHTS)] * scale))
    const wide = rng.chance(0.12)
    const width = e
    const height = wide ? e / 2 : e
    const mips = mipCount(width, height)
    const bytes = texelBytes({ dim: '2d', format, width, height, depth: 1, mips, samples: 1 })
    this.textures.push({ name, format, width, height, mips, driver: rng.chance(0.5), bytes })
    return this.textures.length - 1
  }

  private textureSet(rng: Prng, base: string, variant: number, scale: number): number[] {
    const stem = `T_${base}_${pad2(variant)}`
    const out = [
      this.texture(rng, stem + '_D', rng.chance(0.6) ? 'BC1_UNORM_SRGB' : 'BC7_UNORM_SRGB', scale),
      this.texture(rng, stem + '_N', 'BC5_UNORM', scale),
      this.texture(rng, stem + '_ORM', rng.chance(0.7) ? 'BC1_UNORM' : 'BC7_UNORM', scale),
    ]
    if (rng.chance(0.15)) out.push(this.texture(rng, stem + '_E', 'BC1_UNORM_SRGB', scale * 0.5))
    if (rng.chance(0.2)) out.push(this.texture(rng, stem + '_M', 'BC4_UNORM', scale * 0.5))
    return out
  }

  private readonly details = new Map<string, number[]>()

  /** Tiling detail textures shared by a whole biome. */
  private detailSet(rng: Prng, biome: string): number[] {
    let set = this.details.get(biome)
    if (!set) {
      set = [
        this.texture(rng, `T_${biome}_Detail_D`, 'BC7_UNORM_SRGB', 1, 2048),
        this.texture(rng, `T_${biome}_Detail_N`, 'BC5_UNORM', 1, 2048),
      ]
      this.details.set(biome, set)
    }
    return set
  }

  private mesh(rng: Prng, name: string, textures: number[]): MeshAsset {
    const vertices = Math.round(rng.logRange(400, 120000))
    const lodCount = vertices > 4000 ? rng.int(3, 5) : rng.int(1, 3)
    const lods: MeshLod[] = []
    let v = vertices
    for (let i = 0; i < lodCount; i++) {
      const triangles = Math.round(v * rng.range(1.6, 2.1))
      lods.push({ vertices: v, indices: triangles * 3 })
      v = Math.max(24, Math.round(v * rng.range(0.35, 0.55)))
    }
    return {
      name,
      lods,
      uvs: rng.weighted([45, 40, 15]) + 1,
      highPrecisionTangents: rng.chance(0.1),
      colors: rng.chance(0.25),
      // Bigger meshes tend to have more vertices: a size from the vertex count, with a wide spread.
      extent: Math.min(80, Math.max(0.3, Math.sqrt(vertices) / 12 * rng.logRange(0.4, 2.5))),
      textures,
    }
  }
}
