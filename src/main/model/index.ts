/** The allocator models' entry points for the analysis, the engine and the CLI. */
export { D3D12Model, ModelPlacement } from './d3d12/model'
export type { AllocationView, BlockView, D3D12ModelOptions, PoolView } from './d3d12/model'
export { F as TotalField, TOTAL_FIELDS, TOTAL_ROWS, Totals } from './d3d12/totals'
export type { TotalRow } from './d3d12/totals'
export type { ModelSink } from './events'
