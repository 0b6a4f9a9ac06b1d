/**
 * When the command line runs a command again with transparent huge pages (bin/hugePages.cjs): a command that reads
 * captures of HUGE_PAGES_FROM bytes or more together, with the kernel giving huge pages on request, on glibc, and
 * not already asked; and how it reads the kernel's mode.
 */
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)
const { HUGE_PAGES_FROM, hugePageMode, wantsHugePages } = require('../../../../bin/hugePages.cjs') as {
  HUGE_PAGES_FROM: number
  hugePageMode: (read?: () => string) => string | null
  wantsHugePages: (
    args: string[],
    host: { env: Record<string, string | undefined>; glibc: () => boolean; mode: () => string | null; bytesOf: (path: string) => number },
  ) => boolean
}

const MiB = 2 ** 20
const sizes: Record<string, number> = { 'big.hscap': 300 * MiB, 'half.hscap': 150 * MiB, 'small.hscap': 20 * MiB }
const host = (over: Partial<Parameters<typeof wantsHugePages>[1]> = {}) => ({
  env: {},
  glibc: () => true,
  mode: () => 'madvise',
  bytesOf: (path: string) => sizes[path] ?? 0,
  ...over,
})

describe('huge pages for large captures', () => {
  it('runs a command that reads captures of HUGE_PAGES_FROM bytes together again, and nothing else', () => {
    expect(HUGE_PAGES_FROM).toBe(256 * MiB)
    expect(wantsHugePages(['report', 'big.hscap', '--json'], host())).toBe(true)
    expect(wantsHugePages(['diff', 'half.hscap', 'half.hscap'], host())).toBe(true)
    expect(wantsHugePages(['report', 'half.hscap'], host())).toBe(false)
    // options are not files; a program to record is not a capture
    expect(wantsHugePages(['report', '--json', 'small.hscap'], host())).toBe(false)
    expect(wantsHugePages(['record', '-o', 'big.hscap', '--', 'game'], host())).toBe(false)
    expect(wantsHugePages(['gen', 'stress'], host())).toBe(false)
  })

  it('leaves the process as it is where the kernel gives huge pages to all or none, without glibc, or once asked', () => {
    expect(wantsHugePages(['report', 'big.hscap'], host({ mode: () => 'always' }))).toBe(false)
    expect(wantsHugePages(['report', 'big.hscap'], host({ mode: () => 'never' }))).toBe(false)
    expect(wantsHugePages(['report', 'big.hscap'], host({ mode: () => null }))).toBe(false)
    expect(wantsHugePages(['report', 'big.hscap'], host({ glibc: () => false }))).toBe(false)
    // the child it starts does not start another
    expect(wantsHugePages(['report', 'big.hscap'], host({ env: { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' } }))).toBe(false)
    expect(wantsHugePages(['report', 'big.hscap'], host({ env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' } }))).toBe(true)
  })

  it('reads the kernel\'s mode where it is bracketed, and none where the file is missing', () => {
    expect(hugePageMode(() => 'always [madvise] never\n')).toBe('madvise')
    expect(hugePageMode(() => '[always] madvise never\n')).toBe('always')
    expect(hugePageMode(() => 'always madvise never\n')).toBe(null)
    expect(
      hugePageMode(() => {
        throw new Error('ENOENT')
      }),
    ).toBe(null)
  })
})
