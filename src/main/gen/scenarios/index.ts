/** Every scenario `heapscope gen` knows, in the order `gen --list` shows them. */
import type { Scenario } from '../scenario'
import { budgetDrop } from './budgetDrop'
import { deferred } from './deferred'
import { demo } from './demo'
import { leak } from './leak'
import { raytracing } from './raytracing'
import { streaming } from './streaming'
import { stress } from './stress'
import { vulkan, vulkanHazards } from './vulkan'

export const SCENARIO_LIST: readonly Scenario[] = [deferred, streaming, raytracing, leak, budgetDrop, stress, demo, vulkan, vulkanHazards]
