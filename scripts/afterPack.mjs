/**
 * electron-builder's afterPack hook: turn off what a profiler never uses in the packed Electron binary, through
 * its fuses, before the installer is made (and before signing, which must see the final bytes).
 *
 * - RunAsNode off: ELECTRON_RUN_AS_NODE cannot turn the app into a plain Node.js interpreter (the engine runs in
 *   a worker thread, never as a child process).
 * - NODE_OPTIONS and --inspect arguments ignored: nothing injects code or a debugger from outside.
 * - The app loads only from its app.asar, and file:// gets no extra privileges (pages come from app://).
 * - Cookies encrypted at rest.
 * ASAR integrity validation stays as Electron ships it: it needs the archive's hash embedded per platform.
 */
import path from 'node:path'
import fuses from '@electron/fuses'
import builderUtil from 'builder-util'

const { flipFuses, FuseV1Options, FuseVersion } = fuses
const { Arch } = builderUtil

/** The fuses set; the others keep what the binary shipped with. */
const FUSES = {
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
}

/** The packed Electron binary (macOS: the .app bundle, whose framework holds the fuses). */
function electronBinary(context) {
  const { appOutDir, packager, electronPlatformName } = context
  const name = packager.appInfo.productFilename
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') return path.join(appOutDir, `${name}.app`)
  if (electronPlatformName === 'win32') return path.join(appOutDir, `${name}.exe`)
  return path.join(appOutDir, packager.executableName)
}

export default async function afterPack(context) {
  // arm64 macOS binaries carry an ad-hoc signature that flipping bytes breaks: reset it (real signing follows)
  const resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && [Arch.arm64, Arch.universal].includes(context.arch)
  await flipFuses(electronBinary(context), { version: FuseVersion.V1, resetAdHocDarwinSignature, ...FUSES })
}
