/**
 * The stores' tests against the app's fake host: a fresh Pinia and host before each test (`useAppHost` registers
 * it), the host of the running test (`host`, a live binding), and the stores once the runs store has opened the
 * host's demo run.
 */
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach } from 'vitest'
import { setApi } from '../../../../src/renderer/src/api'
import { useInspectorStore } from '../../../../src/renderer/src/stores/inspector'
import { useRunsStore } from '../../../../src/renderer/src/stores/runs'
import { useTimelineStore } from '../../../../src/renderer/src/stores/timeline'
import { FakeHost } from '../fakeHost'

/** The fake host of the running test. */
export let host: FakeHost

/** A fresh Pinia and a fresh fake host as the api: the new `host`. */
export function resetAppHost(): FakeHost {
  setActivePinia(createPinia())
  host = new FakeHost()
  setApi(host)
  return host
}

/** Before each test of the calling file (or describe block): resetAppHost. */
export function useAppHost(): void {
  beforeEach(() => void resetAppHost())
}

/** Let watchers run and queued answers arrive. */
export async function settle(rounds = 8): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setTimeout(resolve, 0))
}

/** The runs, timeline and inspector stores once the runs store has opened the host's run. */
export async function opened() {
  const runs = useRunsStore()
  const timeline = useTimelineStore()
  const inspector = useInspectorStore()
  await runs.init()
  await settle()
  return { runs, timeline, inspector }
}
