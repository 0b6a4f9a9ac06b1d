import { describe, expect, it } from 'vitest'
import { LANE_ROWS, PLACEMENT_COLORS, tagColor } from '../../../../src/renderer/src/lib/palette'

describe('palette', () => {
  it('has a colour for every row a lane stacks, all different', () => {
    for (const row of LANE_ROWS) expect(PLACEMENT_COLORS[row]).toMatch(/^#[0-9a-f]{6}$/)
    expect(new Set(LANE_ROWS.map((r) => PLACEMENT_COLORS[r])).size).toBe(LANE_ROWS.length)
    // the common tags each their own colour; any other tag a stable one
    const common = ['Textures', 'Meshes', 'RenderTargets', 'UniformBuffers', 'Nanite', 'Lumen', 'Shadows', 'Landscape', 'Particles', 'UI', 'RayTracing', 'SceneRender', 'RHIMisc', 'DistanceFields']
    expect(new Set(common.map(tagColor)).size).toBe(common.length)
    expect(tagColor('MyGame.Props')).toBe(tagColor('MyGame.Props'))
    expect(tagColor('MyGame.Props')).toMatch(/^#[0-9a-f]{6}$/)
  })
})
