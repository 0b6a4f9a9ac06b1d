/**
 * A CPU profile's time by function (a .cpuprofile, as `--cpu-prof` or PROF=DIR of these tools write it):
 *   self DIR|FILE [N]        self time, the N largest (40)
 *   incl DIR|FILE [N]        inclusive time (each function counted once per sample, recursion included)
 *   kids DIR|FILE NAME[:LINE] the inclusive time of each function NAME calls
 *   time DIR|FILE [MS]       the three largest self times in each MS-millisecond slice of the run (50)
 * A directory stands for the first .cpuprofile in it. Usage: bash bench/tools/run.sh profile incl DIR 60
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

interface Node {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface CpuProfile {
  nodes: Node[]
  samples: number[]
  timeDeltas: number[]
}

const [what, where, arg] = process.argv.slice(2)
const file = statSync(where).isDirectory()
  ? join(where, readdirSync(where).find((f) => f.endsWith('.cpuprofile')) ?? '')
  : where
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
const byId = new Map(profile.nodes.map((n) => [n.id, n]))
const parent = new Map<number, number>()
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
const name = (n: Node) => `${n.callFrame.functionName || '(anonymous)'}:${n.callFrame.lineNumber}`
const script = (n: Node) => n.callFrame.url.split('/').pop() ?? ''
const ms = (us: number) => (us / 1000).toFixed(0).padStart(6)

/** Microseconds of samples by node id. */
const self = new Map<number, number>()
let total = 0
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0
  self.set(id, (self.get(id) ?? 0) + dt)
  total += dt
})
const top = (times: Map<string, number>, n: number) =>
  [...times].sort((a, b) => b[1] - a[1]).slice(0, n)
const pct = (t: number) => `${((100 * t) / total).toFixed(1).padStart(5)}%`

if (what === 'self') {
  const times = new Map<string, number>()
  for (const [id, t] of self) {
    const n = byId.get(id)!
    const key = `${name(n)} ${script(n)}`
    times.set(key, (times.get(key) ?? 0) + t)
  }
  for (const [key, t] of top(times, Number(arg ?? 40))) console.log(`${ms(t)} ms ${pct(t)} ${key}`)
  console.log(`total ${ms(total).trim()} ms`)
} else if (what === 'incl' || what === 'kids') {
  const times = new Map<string, number>()
  for (const [id, t] of self) {
    const seen = new Set<string>()
    // up the stack from the sampled node: each function once per sample; for kids, the callee below NAME
    let below: Node | undefined
    for (let x: number | undefined = id; x !== undefined; x = parent.get(x)) {
      const n = byId.get(x)!
      const key = name(n)
      if (what === 'incl') {
        if (!seen.has(key)) times.set(key, (times.get(key) ?? 0) + t)
        seen.add(key)
      } else if (key === arg || n.callFrame.functionName === arg) {
        const kid = below === undefined ? '(self)' : name(below)
        if (!seen.has(kid)) times.set(kid, (times.get(kid) ?? 0) + t)
        seen.add(kid)
        break
      }
      below = n
    }
  }
  for (const [key, t] of top(times, what === 'incl' ? Number(arg ?? 60) : 40)) console.log(`${ms(t)} ms ${pct(t)} ${key}`)
} else if (what === 'time') {
  const slice = Number(arg ?? 50) * 1000
  const slices: Map<string, number>[] = []
  let at = 0
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0
    const k = Math.floor(at / slice)
    slices[k] ??= new Map()
    const key = `${name(byId.get(id)!)} ${script(byId.get(id)!)}`
    slices[k].set(key, (slices[k].get(key) ?? 0) + (profile.timeDeltas[i] ?? 0))
  })
  slices.forEach((times, k) => {
    const parts = top(times, 3).map(([key, t]) => `${key} ${(t / 1000).toFixed(0)}`)
    console.log(`${String((k * slice) / 1000).padStart(6)} ${parts.join('  ')}`)
  })
} else {
  console.error('usage: profile self|incl|kids|time DIR|FILE [N|NAME|MS]')
  process.exitCode = 2
}
