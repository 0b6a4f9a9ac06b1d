// Large captures read with transparent huge pages. A command that reads a capture of hundreds of megabytes touches
// as many megabytes of fresh memory (its columns), and on Linux each 4 KiB page costs a fault: about 15 µs each on
// a virtual machine (bench/README.md, "Huge pages for large captures"), a fifth of a one-shot report of 400 MB. Where
// the kernel gives transparent huge pages on request (`madvise`, most distributions' default), glibc asks for them
// for its large allocations when the process starts with GLIBC_TUNABLES=glibc.malloc.hugetlb=1, and a 2 MiB page
// costs one fault. So such a command runs again, once, in a child process started so: its output, its input and
// its exit status are the command's. Not where the kernel gives them to every process already (`always`) or to
// none (`never`), not without glibc, not for `record` (whose program must run as it runs without HeapScope).
'use strict'
const { readFileSync, statSync } = require('node:fs')
const { constants } = require('node:os')

/** Capture files this large (together) are read with huge pages. */
const HUGE_PAGES_FROM = 256 * 1024 * 1024
/** The tunable, and the commands that read captures. */
const HUGETLB = 'glibc.malloc.hugetlb=1'
const CAPTURE_COMMANDS = new Set(['report', 'diff', 'check', 'export', 'history', 'route'])

/** The kernel's transparent huge page mode: 'always', 'madvise', 'never', or null where it does not say. */
function hugePageMode(read = () => readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'latin1')) {
  try {
    const chosen = /\[(\w+)\]/.exec(read())
    return chosen ? chosen[1] : null
  } catch {
    return null
  }
}

/**
 * Whether the command `args` (the command line after the script) should run again with huge pages: a command that
 * reads captures, the files it names `bytesOf` at least HUGE_PAGES_FROM together, GLIBC_TUNABLES not already asking,
 * the kernel's `mode()` 'madvise', on `glibc()`.
 */
function wantsHugePages(args, { env, glibc, mode, bytesOf }) {
  if (!CAPTURE_COMMANDS.has(args[0])) return false
  if ((env.GLIBC_TUNABLES ?? '').includes('glibc.malloc.hugetlb')) return false
  let bytes = 0
  for (const arg of args.slice(1)) if (!arg.startsWith('-')) bytes += bytesOf(arg)
  // the cheap tests first: a process report (glibc) takes milliseconds
  return bytes >= HUGE_PAGES_FROM && mode() === 'madvise' && glibc()
}

/** A file's bytes, 0 for anything that is not a file. */
function fileBytes(path) {
  try {
    const stat = statSync(path)
    return stat.isFile() ? stat.size : 0
  } catch {
    return 0
  }
}

/** Signals this process passes on to the child: a job's timeout or a terminal's close ends both. */
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * Runs this command again with huge pages where wantsHugePages says so, and returns true: the child's exit status
 * becomes this process's when it ends, and the signals that would end this process are passed on to it. Should the
 * child not start, `fallback` runs the command here. False where this process should run the command itself.
 */
function runWithHugePages(script, args, fallback) {
  const glibc = () => process.platform === 'linux' && Boolean(process.report?.getReport?.().header?.glibcVersionRuntime)
  if (!wantsHugePages(args, { env: process.env, glibc, mode: () => hugePageMode(), bytesOf: fileBytes })) return false
  const tunables = process.env.GLIBC_TUNABLES ? `${process.env.GLIBC_TUNABLES}:${HUGETLB}` : HUGETLB
  // loaded here only: a command's start loads no module it does not use (tests/e2e/cliBundle.test.ts)
  const { spawn } = require('node:child_process')
  const child = spawn(process.execPath, [...process.execArgv, script, ...args], {
    stdio: 'inherit',
    env: { ...process.env, GLIBC_TUNABLES: tunables },
  })
  const forward = (signal) => child.kill(signal)
  for (const signal of FORWARDED) process.on(signal, forward)
  const done = () => {
    for (const signal of FORWARDED) process.off(signal, forward)
  }
  child.on('error', () => {
    done()
    fallback()
  })
  child.on('exit', (code, signal) => {
    done()
    process.exitCode = code ?? 128 + (constants.signals[signal] ?? 0)
  })
  return true
}

module.exports = { HUGE_PAGES_FROM, hugePageMode, wantsHugePages, runWithHugePages }
