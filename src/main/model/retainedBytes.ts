/**
 * What a model holds, for the checkpoints' byte budget: the bytes of the typed arrays reachable from `root` (and
 * 8 a slot of plain arrays), each counted once; what `seen` holds already (objects every copy shares) is not
 * counted.
 */
export function retainedBytes(root: unknown, seen: Set<unknown>): number {
  let bytes = 0
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (value === null || typeof value !== 'object' || seen.has(value)) continue
    seen.add(value)
    if (ArrayBuffer.isView(value)) bytes += value.byteLength
    else if (value instanceof Map) for (const entry of value.values()) stack.push(entry)
    else if (Array.isArray(value)) {
      bytes += 8 * value.length
      for (const item of value) stack.push(item)
    } else for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key])
  }
  return bytes
}
