// The provider kit: what the tracker and code-host plugins share (unified tools, keys, HTTP errors, value models).
export {
  ISSUE_TOOLS,
  MERGE_REQUEST_TOOLS,
  TRACKER_ONLY_FIELDS,
  DEFAULT_LIMIT,
  MAX_LIMIT,
  type IssueToolName,
  type MergeRequestToolName,
  type TrackerToolName,
} from './tools.js';
export { parseNumberedKey, numberedKey, type NumberedKind } from './keys.js';
export { providerError, type HttpFailure, type FailureContext } from './http-errors.js';
export { trackerValueModel, siblingTool, projectFailedJobs } from './value-models.js';
export { windowOfPages, MAX_PAGES_PER_CALL, type FetchedPage, type PagedWindow } from './paging.js';
export { shapedResult } from './results.js';
