import { mount } from '@vue/test-utils'
import { describe, expect, it } from 'vitest'
import ResourceDetails from '../../../../../src/renderer/src/components/inspector/ResourceDetails.vue'
import { createAppI18n } from '../../../../../src/renderer/src/i18n'
import type { ResourceDetails as Details } from '../../../../../src/shared/ipc'

const details = (stack?: Details['stack']): Details => ({
  runId: 'r',
  frame: 3,
  row: {
    id: 7,
    name: 'Mesh.VB',
    tag: '',
    kind: 'buffer',
    placement: 'Type 0',
    heap: 'Heap 0',
    pool: 'BufferBlock',
    offset: 65536,
    occupied: 16384,
    requested: 16384,
    waste: 0,
    created: 0,
    age: 3,
    estimated: false,
  },
  desc: { e: 'buffer', id: 7, size: 16384, stack: 2, vkUsage: 64 },
  releasedFrame: null,
  route: ['bound by the application to memory 4 (type 0) at offset 65536'],
  residency: null,
  ...(stack ? { stack } : {}),
})

describe('a resource made where the capture recorded its call stack', () => {
  it('lists the frames: function and line where symbolized, module+offset otherwise', () => {
    const wrapper = mount(ResourceDetails, {
      props: {
        details: details([
          { module: '/opt/game/bin/game', offset: 0x2a4d, symbol: 'createMeshes', location: '/src/game/mesh.c:42:7' },
          { module: '/lib/x86_64-linux-gnu/libc.so.6', offset: 0x2724a, symbol: '__libc_start_call_main' },
          { module: 'C:\\Game\\engine.dll', offset: 0x10 },
          { address: 0xdead },
        ]),
        firstFrame: 0,
        lastFrame: 10,
        at: 3,
      },
      global: { plugins: [createAppI18n('en')] },
    })
    const frames = wrapper.findAll('[data-testid="stack-frames"] li').map((li) => li.text())
    expect(frames).toEqual([
      'createMeshes (/src/game/mesh.c:42:7)',
      '__libc_start_call_main (libc.so.6+0x2724a)',
      'engine.dll+0x10',
      '0xdead',
    ])
    expect(wrapper.text()).toContain('Made at')
    // the stack's id is not repeated among the desc's fields
    expect(wrapper.findAll('dt').map((dt) => dt.text())).not.toContain('stack')
  })

  it('has no stack section when the capture has none', () => {
    const wrapper = mount(ResourceDetails, { props: { details: details(), firstFrame: 0, lastFrame: 10, at: 3 }, global: { plugins: [createAppI18n('en')] } })
    expect(wrapper.find('[data-testid="stack-frames"]').exists()).toBe(false)
  })
})

describe('the residency object holding a resource', () => {
  const residency = { object: 0, label: 'DEFAULT/AccelerationStructure/0', bytes: 32 * 1024 * 1024, priority: 'high' as const, resident: false, lastUsedFrame: 0 }

  it('shows the object, its size, whether resident, its last use and its priority, in both languages', () => {
    const en = mount(ResourceDetails, {
      props: { details: { ...details(), residency }, firstFrame: 0, lastFrame: 10, at: 3 },
      global: { plugins: [createAppI18n('en')] },
    })
    const section = en.find('[data-testid="details-residency"]')
    expect(section.findAll('dd').map((dd) => dd.text())).toEqual(['#0 · DEFAULT/AccelerationStructure/0', '32.0 MiB', 'evicted', 'frame 0', 'high'])
    const zh = mount(ResourceDetails, {
      props: { details: { ...details(), residency: { ...residency, resident: true, lastUsedFrame: -1, priority: 'normal' } }, firstFrame: 0, lastFrame: 10, at: 3 },
      global: { plugins: [createAppI18n('zh-CN')] },
    })
    expect(zh.find('[data-testid="details-residency"]').findAll('dd').map((dd) => dd.text()).slice(2)).toEqual(['驻留中', '从未', '普通'])
  })

  it('has no residency section where the model manages none', () => {
    const wrapper = mount(ResourceDetails, { props: { details: details(), firstFrame: 0, lastFrame: 10, at: 3 }, global: { plugins: [createAppI18n('en')] } })
    expect(wrapper.find('[data-testid="details-residency"]').exists()).toBe(false)
  })
})
