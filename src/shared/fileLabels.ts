/**
 * What tells apart files of the same name in a list (recent captures from several builds, each `capture.hscap`):
 * the last folders of each one's path that no other file of that name ends with, as an editor labels the tabs of
 * files of one name. `/builds/monday/city.hscap` and `/builds/tuesday/city.hscap` are told apart by `monday` and
 * `tuesday`; `/a/ci1/demo/x` and `/a/ci2/demo/x` by `ci1/demo` and `ci2/demo`.
 */

export interface NamedFile {
  name: string
  /** The folder the file is in, a full path; absent where unknown (then nothing tells it apart). */
  folder?: string
}

/** A path's folders, outermost first; `\` separates them too where the path has no `/` (a Windows path). */
function foldersOf(folder: string): { parts: string[]; separator: string } {
  const separator = folder.includes('/') || !folder.includes('\\') ? '/' : '\\'
  return { parts: folder.split(separator).filter((p) => p !== ''), separator }
}

/** Whether both paths end with the same `n` folders (one of fewer than `n` does not). */
function sameTail(a: readonly string[], b: readonly string[], n: number): boolean {
  if (a.length < n || b.length < n) return false
  for (let i = 1; i <= n; i++) if (a[a.length - i] !== b[b.length - i]) return false
  return true
}

/**
 * For each file (in the order given), the end of its folder that tells it apart from the other files of its name,
 * or undefined where no other file has its name (or its folder is unknown). Where every folder of its path is needed
 * (`/demo` beside `/x/demo`), the whole path.
 */
export function distinguishingFolders(files: readonly NamedFile[]): (string | undefined)[] {
  const byName = new Map<string, number[]>()
  files.forEach((f, i) => {
    if (f.folder === undefined) return
    const same = byName.get(f.name)
    if (same) same.push(i)
    else byName.set(f.name, [i])
  })
  const out: (string | undefined)[] = files.map(() => undefined)
  for (const group of byName.values()) {
    if (group.length < 2) continue
    const paths = group.map((i) => foldersOf(files[i].folder!))
    group.forEach((i, k) => {
      const own = paths[k]
      const others = paths.filter((_, j) => j !== k && files[group[j]].folder !== files[i].folder)
      if (others.length === 0) return
      let n = 1
      while (n < own.parts.length && others.some((o) => sameTail(own.parts, o.parts, n))) n++
      out[i] = n >= own.parts.length ? files[i].folder : own.parts.slice(-n).join(own.separator)
    })
  }
  return out
}
