/**
 * Number fields made doubles to the engine from an object's making. In code the engine has not optimised yet,
 * every number read from a Float64Array (a store's column, a model's table) comes as a heap number, even a whole
 * one; the first such number stored in a field that so far held small integers changes the field's
 * representation, and with it the shape of every object of that kind, and the optimised code that relied on the
 * old shape is thrown away. Met mid-replay (a pool's links taking a block number that came through the pending
 * queue, a frame number from the store), that costs a recompilation of the replay's hottest functions. A field
 * that holds a double from the start keeps its shape: a fraction is stored, then the value back.
 */
export function doubleFields<T extends object>(target: T, keys: readonly (keyof T & string)[]): T {
  const fields = target as Record<string, unknown>
  for (const key of keys) {
    const value = fields[key]
    fields[key] = 0.5
    fields[key] = value
  }
  return target
}
