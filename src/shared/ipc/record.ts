/** Recording a program under the Vulkan capture layer. */
/** Where the app can record a program under the Vulkan capture layer. */
export interface RecordInfo {
  /** The built layer's folder; null when it is not built, and `problem` says how to build it. */
  layerDir: string | null
  problem?: string
  /** The folder captures go to when the request names no output file. */
  capturesDir: string
  /** The host's platform (`linux`, `win32`, `darwin`): programs run on the host's machine. */
  platform: string
}

/** Run a program under the Vulkan capture layer and follow its capture as it is written. */
export interface RecordRequest {
  loadId: string
  /** The program's path on the host's machine (or a name found on its PATH). */
  program: string
  args: string[]
  /** What a frame is: a present, a submit, or (absent) submits until the program first presents. */
  framesFrom?: 'submit' | 'present'
  /** Record the call stack of each allocation and resource creation. */
  stacks: boolean
  /** The capture file (`.hscap`); a new file in `RecordInfo.capturesDir` when absent. */
  output?: string
}

/** A recorded program's state, pushed when it starts and when it ends. */
export interface RecordStatus {
  loadId: string
  program: string
  /** The capture file it writes. */
  output: string
  state: 'running' | 'exited'
  pid?: number
  /** How it ended: its exit code, or the signal that ended it. */
  code?: number | null
  signal?: string | null
  /** Why it could not start, or the last lines it wrote to its output when it failed. */
  message?: string
}
