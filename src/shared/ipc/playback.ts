/** Playback: frames streamed as the renderer draws them. */
import type { Bytes } from '../units'
import type { ResourceRow } from './snapshot'

export interface PlaybackRequest {
  runId: string
  /** Chosen by the renderer, to match the frames it receives. */
  playbackId: string
  /** Frame index to start from, and one past the last. */
  from: number
  to: number
  /** Frames per second wanted. */
  fps: number
}

/** One frame of playback: what changed since the previous frame sent (frames skipped included). */
export interface PlaybackFrame {
  playbackId: string
  frame: number
  frameNumber: number
  /** Frames skipped since the previous one sent, because the renderer had not acknowledged it. */
  skipped: number
  created: ResourceRow[]
  /** More creates than sent: the inspector should page again. */
  createdTruncated: boolean
  released: number[]
  liveCount: number
  heapBytes: Record<string, Bytes>
  residentBytes: Bytes
}
