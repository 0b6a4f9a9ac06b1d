/**
 * Playback: the engine streams run A frame after frame at the speed asked; each frame moves the cursor and
 * updates the inspector's live table, and is acknowledged once drawn, so a slow window gets fewer, larger steps.
 */
import { defineStore } from 'pinia'
import { nextTick, ref } from 'vue'
import type { PlaybackFrame, Unsubscribe } from '../../../shared/ipc'
import { useApi } from '../api'
import { useInspectorStore } from './inspector'
import { useRunsStore } from './runs'
import { useTimelineStore } from './timeline'

export const SPEEDS = [5, 15, 30, 60, 120] as const

let playbackCounter = 0

/** After the next paint (or at once where there is none, as in tests). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => resolve())
    else resolve()
  })
}

export const usePlaybackStore = defineStore('playback', () => {
  const runs = useRunsStore()
  const timeline = useTimelineStore()
  const inspector = useInspectorStore()
  const playing = ref(false)
  const fps = ref<number>(30)
  const frames = ref(0)
  const skipped = ref(0)
  let playbackId: string | null = null
  let unsubscribe: Unsubscribe | undefined

  function init(): void {
    unsubscribe?.()
    unsubscribe = useApi().onPlayback((frame) => void received(frame))
  }

  async function received(frame: PlaybackFrame): Promise<void> {
    if (!playing.value || frame.playbackId !== playbackId) return
    frames.value++
    skipped.value += frame.skipped
    inspector.applyPlayback(frame)
    timeline.setCursor(frame.frame)
    await nextTick()
    await afterPaint()
    const id = playbackId
    if (id !== frame.playbackId) return
    if (frame.frame >= timeline.frames - 1) {
      await pause()
      return
    }
    await useApi().ackPlayback(id, frame.frame)
  }

  async function play(): Promise<void> {
    const run = runs.current
    if (!run || playing.value || run.frames < 2) return
    let from = timeline.cursor ?? 0
    if (from >= run.frames - 1) from = 0
    timeline.setCursor(from)
    playbackId = `play-${Date.now().toString(36)}-${(playbackCounter++).toString(36)}`
    playing.value = true
    frames.value = 0
    skipped.value = 0
    inspector.beginPlayback()
    try {
      await useApi().startPlayback({ runId: run.runId, playbackId, from, to: run.frames, fps: fps.value })
    } catch {
      playing.value = false
      playbackId = null
      await inspector.endPlayback()
    }
  }

  async function pause(): Promise<void> {
    if (!playing.value) return
    const id = playbackId
    playing.value = false
    playbackId = null
    if (id) {
      try {
        await useApi().stopPlayback(id)
      } catch {
        // the run may be gone already
      }
    }
    await inspector.endPlayback()
  }

  function toggle(): Promise<void> {
    return playing.value ? pause() : play()
  }

  async function step(delta: number): Promise<void> {
    await pause()
    timeline.stepCursor(delta)
  }

  async function setSpeed(next: number): Promise<void> {
    fps.value = next
    if (playing.value) {
      await pause()
      await play()
    }
  }

  return { playing, fps, frames, skipped, init, play, pause, toggle, step, setSpeed }
})
