import { describe, expect, it } from 'vitest'
import { distinguishingFolders, type NamedFile } from '../../../src/shared/fileLabels'

/** Why, the files (a name and its folder, where known), and what tells each apart. */
const CASES: [string, [string, string?][], (string | undefined)[]][] = [
  [
    'nothing for a file whose name no other file has',
    [['a.hscap', '/captures/monday'], ['b.hscap', '/captures/monday'], ['c.hscap']],
    [undefined, undefined, undefined],
  ],
  [
    'the fewest last folders that differ',
    [['city.hscap', '/builds/monday'], ['other.hscap', '/builds/monday'], ['city.hscap', '/builds/tuesday']],
    ['monday', undefined, 'tuesday'],
  ],
  [
    'the clones of a repository: folders that differ three levels up',
    [['demo.hscap.gz', '/work/main/resources/demo'], ['demo.hscap.gz', '/tmp/ci52/resources/demo'], ['demo.hscap.gz', '/tmp/ci53/resources/demo']],
    ['main/resources/demo', 'ci52/resources/demo', 'ci53/resources/demo'],
  ],
  [
    'as many folders as the file that shares the most of them needs, each file on its own',
    [['x', '/a/b/c'], ['x', '/a/d/c'], ['x', '/a/b/e']],
    ['b/c', 'd/c', 'e'],
  ],
  [
    'the whole path where every folder of it is needed',
    [['x', '/demo'], ['x', '/x/demo'], ['x', '/y/x/demo']],
    ['/demo', '/x/demo', '/y/x/demo'],
  ],
  [
    'a Windows path split at its backslashes',
    [['city.hscap', 'C:\\Captures\\Monday'], ['city.hscap', 'D:\\Captures\\Monday'], ['city.hscap', 'C:\\Captures\\Tuesday']],
    ['C:\\Captures\\Monday', 'D:\\Captures\\Monday', 'Tuesday'],
  ],
  ['nothing for a file whose folder is unknown', [['x', '/a/one'], ['x'], ['x', '/a/two']], ['one', undefined, 'two']],
  ['nothing for two entries of one file', [['x', '/a/one'], ['x', '/a/one']], [undefined, undefined]],
]

describe('distinguishingFolders gives', () => {
  it.each(CASES)('%s', (_why, files, expected) => {
    const named: NamedFile[] = files.map(([name, folder]) => (folder === undefined ? { name } : { name, folder }))
    expect(distinguishingFolders(named)).toEqual(expected)
  })
})
