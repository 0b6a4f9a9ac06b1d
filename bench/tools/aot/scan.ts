// AssemblyScript, compiled to WebAssembly by bench/tools/aot.ts: the least a capture's scanner does, as code compiled
// before it runs. Each line's JSON is read through (keys and strings hashed by their bytes, as interning reads them;
// numbers parsed to doubles; arrays and objects at any depth), the values summed, nothing kept. The capture comes in
// chunks written to the module's buffer behind what was left of the line before. Not the app's scanner, which also
// checks every record, interns its strings and builds the store (bench/tools/README.md).

const QUOTE: u8 = 0x22
const BACKSLASH: u8 = 0x5c
const COMMA: u8 = 0x2c
const COLON: u8 = 0x3a
const LBRACE: u8 = 0x7b
const RBRACE: u8 = 0x7d
const LBRACKET: u8 = 0x5b
const RBRACKET: u8 = 0x5d
const MINUS: u8 = 0x2d
const DOT: u8 = 0x2e
const NEWLINE: u8 = 0x0a

let buffer = new StaticArray<u8>(1)
let base: usize = 0
let records = 0
let numbers: f64 = 0
let hash: u32 = 0
let fault = 0

/** A buffer of `capacity` bytes for the chunks; its address in the module's memory. */
export function init(capacity: i32): usize {
  buffer = new StaticArray<u8>(capacity)
  base = changetype<usize>(buffer)
  records = 0
  numbers = 0
  hash = 0
  fault = 0
  return base
}

export function recordCount(): i32 {
  return records
}
export function numberSum(): f64 {
  return numbers
}
export function stringHash(): u32 {
  return hash
}
/** Lines that were not JSON objects. */
export function faults(): i32 {
  return fault
}

// @ts-ignore: AssemblyScript's decorator: inlined by asc, so Liftoff's code makes no call per byte
@inline
function at(p: i32): u8 {
  return load<u8>(base + <usize>p)
}

function ws(p: i32): i32 {
  let c = at(p)
  while (c == 0x20 || c == 0x09 || c == 0x0d) c = at(++p)
  return p
}

/** From the opening quote: hashes the bytes (FNV-1a), returns the index after the closing quote. */
function string(p: i32): i32 {
  let h: u32 = 2166136261
  p++
  for (;;) {
    const c = at(p)
    if (c == QUOTE) break
    if (c == NEWLINE) return -1
    if (c == BACKSLASH) p++
    h = (h ^ c) * 16777619
    p++
  }
  hash ^= h
  return p + 1
}

function number(p: i32): i32 {
  let negative = false
  if (at(p) == MINUS) {
    negative = true
    p++
  }
  let value: f64 = 0
  let c = at(p)
  while (c >= 0x30 && c <= 0x39) {
    value = value * 10 + <f64>(c - 0x30)
    c = at(++p)
  }
  if (c == DOT) {
    let scale: f64 = 1
    c = at(++p)
    while (c >= 0x30 && c <= 0x39) {
      value = value * 10 + <f64>(c - 0x30)
      scale *= 10
      c = at(++p)
    }
    value /= scale
  }
  if (c == 0x65 || c == 0x45) {
    c = at(++p)
    let exponentNegative = false
    if (c == MINUS || c == 0x2b) {
      exponentNegative = c == MINUS
      c = at(++p)
    }
    let exponent = 0
    while (c >= 0x30 && c <= 0x39) {
      exponent = exponent * 10 + <i32>(c - 0x30)
      c = at(++p)
    }
    value = exponentNegative ? value / Math.pow(10, exponent) : value * Math.pow(10, exponent)
  }
  numbers += negative ? -value : value
  return p
}

function value(p: i32): i32 {
  const c = at(p)
  if (c == QUOTE) return string(p)
  if (c == LBRACE) return object(p)
  if (c == LBRACKET) {
    p = ws(p + 1)
    if (at(p) == RBRACKET) return p + 1
    for (;;) {
      p = value(p)
      if (p < 0) return -1
      p = ws(p)
      const d = at(p)
      if (d == RBRACKET) return p + 1
      if (d != COMMA) return -1
      p = ws(p + 1)
    }
  }
  if (c == MINUS || (c >= 0x30 && c <= 0x39)) return number(p)
  if (c == 0x74 || c == 0x6e) return p + 4
  if (c == 0x66) return p + 5
  return -1
}

function object(p: i32): i32 {
  p = ws(p + 1)
  if (at(p) == RBRACE) return p + 1
  for (;;) {
    if (at(p) != QUOTE) return -1
    p = string(p)
    if (p < 0) return -1
    p = ws(p)
    if (at(p) != COLON) return -1
    p = value(ws(p + 1))
    if (p < 0) return -1
    p = ws(p)
    const c = at(p)
    if (c == RBRACE) return p + 1
    if (c != COMMA) return -1
    p = ws(p + 1)
  }
  return -1
}

/** Reads the whole lines of the buffer's first `length` bytes; returns the bytes they take. */
export function scan(length: i32): i32 {
  let last = length
  while (last > 0 && at(last - 1) != NEWLINE) last--
  let p = 0
  while (p < last) {
    let end = object(ws(p))
    if (end < 0 || at(ws(end)) != NEWLINE) {
      fault++
      end = p
      while (at(end) != NEWLINE) end++
    } else {
      end = ws(end)
      records++
    }
    p = end + 1
  }
  return last
}
