/** HeapScope's own version: the app's About box, the CLI's --version, and the metadata of every history export. */
export const HEAPSCOPE_VERSION = '0.1.0'
