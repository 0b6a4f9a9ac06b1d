import { LocalEngine } from './src/main/engine/engine'
import { loadCaptureFile } from './src/main/ingest/read'
const engine = new LocalEngine()
const result = await loadCaptureFile(process.argv[2])
const run = await engine.addRun(result, {})
const n = result.store.frames.length
const t0 = performance.now()
const a = await engine.leaks({ runId: run.id, from: Number(process.argv[3] ?? 0), to: Number(process.argv[4] ?? n - 1), offset: 0, limit: 5 })
console.log('ms', performance.now() - t0, 'total', a.total, a.totalBytes, a.growthBytes)
for (const g of a.groups.slice(0, 12)) console.log(JSON.stringify(g))
console.log('--tags')
for (const g of a.groups.filter(g=>g.by==='tag').slice(0, 6)) console.log(JSON.stringify(g))
await engine.dispose()
