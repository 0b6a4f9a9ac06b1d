/**
 * An aliasing hazard: a GPU access that breaks one of CreatePlacedResource's rules (seeds/createplacedresource.fr.txt,
 * Remarques; docs/aliasing.md). It names the frame, the rule, the resources (the one accessed first), the heap
 * and the byte range involved, and says what happened in a sentence.
 */
import type { Bytes, Frame } from '../../../shared/units'
import type { AccessOp } from '../../../shared/capture'

export const HAZARD_RULES = ['access-inactive', 'rt-not-initialized', 'barrier-missing'] as const
export type HazardRule = (typeof HAZARD_RULES)[number]

export interface Hazard {
  frame: Frame
  rule: HazardRule
  resources: number[]
  heap: number
  /** Heap bytes [start, end). */
  range: [Bytes, Bytes]
  message: string
}

/** Initialization operations of the seed: a clear, a discard, or a full copy into the resource. */
export function isInitialization(op: AccessOp): boolean {
  return op === 'clear' || op === 'discard' || op === 'copy'
}

/** "read", "written", "cleared", "discarded", "copied to": how the messages say an access. */
export function accessVerb(op: AccessOp): string {
  switch (op) {
    case 'read':
      return 'read'
    case 'write':
      return 'written'
    case 'clear':
      return 'cleared'
    case 'discard':
      return 'discarded'
    case 'copy':
      return 'copied to'
  }
}
