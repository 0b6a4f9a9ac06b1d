import { vi } from 'vitest'

/**
 * Runs `body` with a playback's clock (setInterval and performance.now) on fake time, moved on by
 * vi.advanceTimersByTime: a loaded machine's late ticks change nothing (a late tick on real time lands on the frame
 * its time asks for, skipping some).
 */
export async function onFakeClock(body: () => Promise<void> | void): Promise<void> {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] })
  try {
    await body()
  } finally {
    vi.useRealTimers()
  }
}
