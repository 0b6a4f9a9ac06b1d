import { describe, expect, it } from 'vitest'
import { usePlaybackStore } from '../../../../src/renderer/src/stores/playback'
import { host, opened, settle, useAppHost } from './appHost'

useAppHost()

describe('playback store', () => {
  it('plays from the cursor, moves it with each frame, acknowledges it once drawn, and stops', async () => {
    const { timeline, inspector } = await opened()
    const playback = usePlaybackStore()
    playback.init()
    await playback.play()
    expect(host.playbacks[0]).toMatchObject({ from: 70, to: 100, fps: 30 })
    const id = host.playbacks[0].playbackId
    const frame = { playbackId: id, frame: 75, frameNumber: 76, skipped: 4, created: [], createdTruncated: false, released: [], liveCount: 450, heapBytes: {}, residentBytes: 0 }
    host.sendPlayback(frame)
    await settle()
    expect(timeline.cursor).toBe(75)
    expect(host.acked).toEqual([[id, 75]])
    // the inspector did not page the engine for the frames played
    const pages = host.resourceQueries.length
    await playback.pause()
    expect(host.stopped).toEqual([id])
    expect(inspector.live).toBeNull()
    await settle()
    expect(host.resourceQueries.length).toBe(pages + 1)
    expect(host.resourceQueries[pages].frame).toBe(75)
  })

  it('stops by itself at the last frame and ignores frames of another playback', async () => {
    const { timeline } = await opened()
    const playback = usePlaybackStore()
    playback.init()
    await playback.play()
    const id = host.playbacks[0].playbackId
    const frame = { playbackId: 'other', frame: 80, frameNumber: 81, skipped: 0, created: [], createdTruncated: false, released: [], liveCount: 0, heapBytes: {}, residentBytes: 0 }
    host.sendPlayback(frame)
    await settle()
    expect(timeline.cursor).toBe(70)
    host.sendPlayback({ ...frame, playbackId: id, frame: 99 })
    await settle()
    expect(playback.playing).toBe(false)
    expect(host.stopped).toEqual([id])
  })
})
