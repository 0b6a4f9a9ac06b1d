/** What the window shows: the view, an open dialog, and the desktop app's menu commands routed to actions. */
import { defineStore } from 'pinia'
import { ref, watch } from 'vue'
import type { MenuCommand, Unsubscribe } from '../../../shared/ipc'
import { useApi } from '../api'
import { useRunsStore } from './runs'

export const VIEWS = ['timeline', 'aliasing', 'compare', 'whatif'] as const
/** The history of many builds needs no run open. */
export type ViewName = (typeof VIEWS)[number] | 'start' | 'history'
export type DialogName = 'about' | 'formats' | 'shortcuts' | 'capture'

export const useUiStore = defineStore('ui', () => {
  const runs = useRunsStore()
  // a store first used with runs already open starts on their view
  const view = ref<ViewName>(runs.current ? (runs.other ? 'compare' : 'timeline') : 'start')
  const dialog = ref<DialogName | null>(null)
  /** Where a file picked in the page goes (the browser host has no native dialog). */
  const pickFor = ref<'A' | 'B'>('A')
  /** The Capture dialog's last choices, kept while the window is open: the same program again is one click. */
  const captureChoices = { program: '', args: '', framesFrom: '' as '' | 'submit' | 'present', stacks: false, output: '' }

  let unsubscribe: Unsubscribe | undefined

  /** Route the desktop app's menu commands (and the browser host's equivalents) to `handle`. */
  function init(handle: (command: MenuCommand, arg?: string) => void): void {
    unsubscribe?.()
    unsubscribe = useApi().onMenu(handle)
  }

  function show(next: ViewName): void {
    view.value = next === 'start' || next === 'history' || runs.current ? next : 'start'
  }

  function openDialog(name: DialogName | null): void {
    dialog.value = name
  }

  watch(
    () => runs.current?.runId,
    (id, previous) => {
      if (!id) view.value = view.value === 'history' ? 'history' : 'start'
      else if (!previous || view.value === 'start') view.value = 'timeline'
    },
  )
  watch(
    () => runs.other?.runId,
    (id, previous) => {
      if (id && id !== previous) view.value = 'compare'
      else if (!id && view.value === 'compare') view.value = runs.current ? 'timeline' : 'start'
    },
  )

  return { view, dialog, pickFor, captureChoices, init, show, openDialog }
})
