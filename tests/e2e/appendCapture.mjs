#!/usr/bin/env node
// A program that writes a capture as a running one does: `node appendCapture.mjs SOURCE [OUTPUT] [--fps N]`
// copies the plain capture SOURCE to OUTPUT (HEAPSCOPE_CAPTURE_FILE when absent, as the capture layer reads it) a
// frame at a time, N frames a second, each write stopping part way into the next frame's first line, so the file
// always ends with a torn line until the next write. It ends after the last frame, or on SIGTERM (writing
// nothing more, as a program ended mid-run).
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'

const argv = process.argv.slice(2)
let fps = 30
const positional = []
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--fps') fps = Number(argv[++i])
  else positional.push(argv[i])
}
const [source, named] = positional
const output = named ?? process.env.HEAPSCOPE_CAPTURE_FILE
if (!source || !output || !(fps > 0)) {
  console.error('usage: appendCapture.mjs SOURCE [OUTPUT] [--fps N] (OUTPUT defaults to HEAPSCOPE_CAPTURE_FILE)')
  process.exit(2)
}

const bytes = readFileSync(source)
// where each frame record's line starts
const starts = []
const marker = Buffer.from('\n{"e":"frame"')
for (let at = bytes.indexOf(marker); at >= 0; at = bytes.indexOf(marker, at + 1)) starts.push(at + 1)
starts.push(bytes.length)

writeFileSync(output, '')
let written = 0
let next = 0
process.on('SIGTERM', () => process.exit(143))
const timer = setInterval(() => {
  if (next >= starts.length) {
    appendFileSync(output, bytes.subarray(written))
    clearInterval(timer)
    return
  }
  // up to 9 bytes into the next frame's first line: a torn line the reader must wait on
  const end = Math.min(bytes.length, starts[next] + 9)
  appendFileSync(output, bytes.subarray(written, end))
  written = end
  next++
}, 1000 / fps)
