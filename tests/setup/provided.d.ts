/** What vitest.config.ts provides to every test file (read with `inject`). */
import 'vitest'

declare module 'vitest' {
  export interface ProvidedContext {
    /** fast-check's seed for every property, and the factor on their run counts (1 outside a fuzz run). */
    fastCheck: { seed: number; runs: number }
  }
}
