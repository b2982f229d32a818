// The provider kit: what the tracker and code-host plugins share (unified tools, keys, HTTP errors, value models,
// argument readers, name lookups, CI job logs).
export {
  ISSUE_TOOLS,
  MERGE_REQUEST_TOOLS,
  TRACKER_METADATA_TOOLS,
  SPRINT_TOOLS,
  TRACKER_ONLY_FIELDS,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  type IssueToolName,
  type MergeRequestToolName,
  type TrackerMetadataToolName,
  type SprintToolName,
  type TrackerToolName,
} from './tools.js';
export { parseNumberedKey, numberedKey, canonicalizeKey, type NumberedKind } from './keys.js';
export { providerError, type HttpFailure, type FailureContext } from './http-errors.js';
export { trackerValueModel, siblingTool, projectFailedJobs } from './value-models.js';
export { windowOfPages, MAX_PAGES_PER_CALL, type FetchedPage, type PagedWindow } from './paging.js';
export { shapedResult, writtenResult, commentedResult } from './results.js';
export { str, strings, int, dispatchTo, type Args, type ToolHandler } from './args.js';
export { lookupByName, notAllowed } from './lookups.js';
export { logLines, compilePattern, jobIdArg, logQuery, renderJobLog, type LogView } from './ci-logs.js';
export { MAX_LOG_LINES, MAX_LOG_CHARS, type LogQuery } from './log-window.js';
export { parsePluginOptions } from './options.js';
export {
  createRefreshingMetadata,
  type MetadataSource,
  type RefreshingMetadata,
} from './refreshing-metadata.js';
export { type MetadataSharing, metadataSharing, sharedMetadataKey } from './metadata-sharing.js';
export { abortableSleep } from './sleep.js';
export { rateLimitKey } from './rate-limit-key.js';
export { type BackgroundWork, inBackground } from './background.js';
export {
  createHealthProbe,
  fetchProbe,
  metadataHealth,
  probeProblem,
  shownUrl,
  PROBE_TIMEOUT_MS,
  type HealthProbe,
  type ProbeSource,
} from './health-probe.js';
