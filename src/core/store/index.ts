/** The run store: run folders, the append-only event log, state rebuilt from events, live tailing, resume. */
export * from './events';
export * from './runState';
export { RunStore, readRun } from './RunStore';
export type {
  CreateRunMeta,
  DurableFileOps,
  InitialRunContent,
  OpenOptions,
  ReadResult,
  RecoveryReport,
  RunEventListener,
  RunStoreOptions,
} from './RunStore';
export { isRunFolder, listRuns, summarizeRun, newRunId, readRunMeta, runsDir, RUN_FILES, type RunMeta, type RunSummary } from './runFolder';
export { renderSnapshots, type RenderedSnapshots } from './snapshots';
export { tail, type TailOptions } from './tail';
export { RunLockedError, type LockInfo } from './writerLock';
export type { LogIssue } from './eventLog';
export { checkResumeProviders, modelsConfig, resumeFlags, ResumeProviderError, type RecordedProvider, type RunModelsConfig } from './runProviders';
export { assertResumable, checkResumable, logIssueLines, ResumeRefusedError, type ResumeCheck } from './resumeCheck';
