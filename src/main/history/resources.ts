/**
 * Every resource a run created, one row each in create order, as the Parquet export's `resources` file holds them
 * (docs/history.md): its id, name, tag, where the model placed it (placement, heap, pool, offset, sizes and the
 * route), and the frames it was created and released in. The run's backend places them again
 * (`BackendRun.resourceRows`: analysis/d3d12/resourceRows.ts, analysis/vulkan/resourceRows.ts); a backend that
 * places nothing has no rows.
 */
import type { BackendRun } from '../analysis/backend'
import { emptyRows, type ResourceRows } from '../analysis/resourceRows'

export type { ResourceKind, ResourceRows } from '../analysis/resourceRows'

export function resourceRows(run: BackendRun): ResourceRows {
  return run.resourceRows?.() ?? emptyRows()
}
