import { describe, expect, it } from 'vitest'
import { distinguishingFolders } from '../../../src/shared/fileLabels'

describe('distinguishingFolders', () => {
  it('gives nothing to a file whose name no other file has', () => {
    expect(distinguishingFolders([
      { name: 'a.hscap', folder: '/captures/monday' },
      { name: 'b.hscap', folder: '/captures/monday' },
      { name: 'c.hscap' },
    ])).toEqual([undefined, undefined, undefined])
  })

  it('tells files of one name apart by the fewest last folders that differ', () => {
    expect(distinguishingFolders([
      { name: 'city.hscap', folder: '/builds/monday' },
      { name: 'other.hscap', folder: '/builds/monday' },
      { name: 'city.hscap', folder: '/builds/tuesday' },
    ])).toEqual(['monday', undefined, 'tuesday'])
    // the clones of a repository: the folders differ three levels up
    expect(distinguishingFolders([
      { name: 'demo.hscap.gz', folder: '/work/main/resources/demo' },
      { name: 'demo.hscap.gz', folder: '/tmp/ci52/resources/demo' },
      { name: 'demo.hscap.gz', folder: '/tmp/ci53/resources/demo' },
    ])).toEqual(['main/resources/demo', 'ci52/resources/demo', 'ci53/resources/demo'])
  })

  it('takes as many folders as the file that shares the most of them needs, each file on its own', () => {
    expect(distinguishingFolders([
      { name: 'x', folder: '/a/b/c' },
      { name: 'x', folder: '/a/d/c' },
      { name: 'x', folder: '/a/b/e' },
    ])).toEqual(['b/c', 'd/c', 'e'])
  })

  it('gives the whole path where every folder of it is needed', () => {
    expect(distinguishingFolders([
      { name: 'x', folder: '/demo' },
      { name: 'x', folder: '/x/demo' },
      { name: 'x', folder: '/y/x/demo' },
    ])).toEqual(['/demo', '/x/demo', '/y/x/demo'])
  })

  it('splits a Windows path at its backslashes', () => {
    expect(distinguishingFolders([
      { name: 'city.hscap', folder: 'C:\\Captures\\Monday' },
      { name: 'city.hscap', folder: 'D:\\Captures\\Monday' },
      { name: 'city.hscap', folder: 'C:\\Captures\\Tuesday' },
    ])).toEqual(['C:\\Captures\\Monday', 'D:\\Captures\\Monday', 'Tuesday'])
  })

  it('leaves out a file whose folder is unknown, and two entries of one file', () => {
    expect(distinguishingFolders([
      { name: 'x', folder: '/a/one' },
      { name: 'x' },
      { name: 'x', folder: '/a/two' },
    ])).toEqual(['one', undefined, 'two'])
    expect(distinguishingFolders([
      { name: 'x', folder: '/a/one' },
      { name: 'x', folder: '/a/one' },
    ])).toEqual([undefined, undefined])
  })
})
