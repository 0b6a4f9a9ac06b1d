/** A host for renderer tests: every Api method fails unless a test gives it an answer. */
import type { Api } from '../../../src/shared/ipc'

const notFaked = (method: string) => () => Promise.reject(new Error(`${method} is not faked in this test`))

export class FakeApiBase implements Api {
  appInfo: Api['appInfo'] = notFaked('appInfo')
  openCapture: Api['openCapture'] = notFaked('openCapture')
  openCaptureDialog: Api['openCaptureDialog'] = notFaked('openCaptureDialog')
  beginUpload: Api['beginUpload'] = notFaked('beginUpload')
  uploadChunk: Api['uploadChunk'] = notFaked('uploadChunk')
  endUpload: Api['endUpload'] = notFaked('endUpload')
  cancelLoad: Api['cancelLoad'] = notFaked('cancelLoad')
  closeRun: Api['closeRun'] = notFaked('closeRun')
  rerun: Api['rerun'] = notFaked('rerun')
  runConfig: Api['runConfig'] = notFaked('runConfig')
  report: Api['report'] = notFaked('report')
  series: Api['series'] = notFaked('series')
  snapshot: Api['snapshot'] = notFaked('snapshot')
  resources: Api['resources'] = notFaked('resources')
  resource: Api['resource'] = notFaked('resource')
  transients: Api['transients'] = notFaked('transients')
  residencyEvents: Api['residencyEvents'] = notFaked('residencyEvents')
  compareSeries: Api['compareSeries'] = notFaked('compareSeries')
  resourceDiff: Api['resourceDiff'] = notFaked('resourceDiff')
  leaks: Api['leaks'] = notFaked('leaks')
  startPlayback: Api['startPlayback'] = notFaked('startPlayback')
  ackPlayback: Api['ackPlayback'] = notFaked('ackPlayback')
  stopPlayback: Api['stopPlayback'] = notFaked('stopPlayback')
  settings: Api['settings'] = notFaked('settings')
  updateSettings: Api['updateSettings'] = notFaked('updateSettings')
  onProgress: Api['onProgress'] = () => () => undefined
  onPlayback: Api['onPlayback'] = () => () => undefined
  onMenu: Api['onMenu'] = () => () => undefined
  recentFiles: Api['recentFiles'] = notFaked('recentFiles')
  clearRecentFiles: Api['clearRecentFiles'] = notFaked('clearRecentFiles')
  exportCapture: Api['exportCapture'] = notFaked('exportCapture')
  onEngineStopped: Api['onEngineStopped'] = () => () => undefined
  hazards: Api['hazards'] = notFaked('hazards')
  placements: Api['placements'] = notFaked('placements')
  search: Api['search'] = notFaked('search')
  followCapture: Api['followCapture'] = notFaked('followCapture')
  stopFollowing: Api['stopFollowing'] = notFaked('stopFollowing')
  recordInfo: Api['recordInfo'] = notFaked('recordInfo')
  startRecording: Api['startRecording'] = notFaked('startRecording')
  stopRecording: Api['stopRecording'] = notFaked('stopRecording')
  onRecording: Api['onRecording'] = () => () => undefined
  openHistory: Api['openHistory'] = notFaked('openHistory')
  openHistoryDialog: Api['openHistoryDialog'] = notFaked('openHistoryDialog')
  historyTrend: Api['historyTrend'] = notFaked('historyTrend')
  historyRun: Api['historyRun'] = notFaked('historyRun')
  closeHistory: Api['closeHistory'] = notFaked('closeHistory')
}
