/**
 * A program's arguments typed on one line, split as a POSIX shell splits words (without expansions): spaces
 * separate, single quotes keep everything, double quotes keep everything but `\"` and `\\`, a backslash outside
 * quotes keeps the next character. Null when a quote is not closed.
 */
export function splitArguments(line: string): string[] | null {
  const out: string[] = []
  let word = ''
  let inWord = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i]
    if (c === "'") {
      const end = line.indexOf("'", i + 1)
      if (end < 0) return null
      word += line.slice(i + 1, end)
      inWord = true
      i = end
    } else if (c === '"') {
      let j = i + 1
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && (line[j + 1] === '"' || line[j + 1] === '\\')) j++
        word += line[j]
      }
      if (j >= line.length) return null
      inWord = true
      i = j
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i]
      inWord = true
    } else if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) out.push(word)
      word = ''
      inWord = false
    } else {
      word += c
      inWord = true
    }
  }
  if (inWord) out.push(word)
  return out
}
