import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitArguments } from '../../../../src/renderer/src/lib/commandLine'

describe('a program’s arguments typed on one line', () => {
  it('splits as a shell does, quotes and backslashes kept out of the words', () => {
    expect(splitArguments('--c 400')).toEqual(['--c', '400'])
    expect(splitArguments('  -s 640x480   -b "build:duration=1" ')).toEqual(['-s', '640x480', '-b', 'build:duration=1'])
    expect(splitArguments(`--scene 'C:\\Games\\My Game\\level 1.map' --name "say \\"hi\\""`)).toEqual([
      '--scene',
      'C:\\Games\\My Game\\level 1.map',
      '--name',
      'say "hi"',
    ])
    expect(splitArguments('a\\ b c""d \'\'')).toEqual(['a b', 'cd', ''])
    expect(splitArguments('')).toEqual([])
  })

  it('says when a quote is not closed', () => {
    expect(splitArguments('--name "open')).toBeNull()
    expect(splitArguments("--name 'open")).toBeNull()
  })

  it('words without quotes, backslashes or spaces come back as they were joined (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9_=:.,/-]{1,12}$/)
    fc.assert(
      fc.property(fc.array(word, { maxLength: 8 }), (words) => {
        expect(splitArguments(words.join(' '))).toEqual(words)
      }),
      { seed: 13, numRuns: 200 },
    )
  })
})
