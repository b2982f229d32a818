// What every workspace tool shares: the confined root and the configured limits.
import type { WorkspaceRoot } from './paths.js';

export interface Workspace {
  readonly root: WorkspaceRoot;
  readonly maxReadBytes: number;
  readonly maxResults: number;
}
