// Response bodies in GitLab's REST v4 shapes, field by field as GitLab's API documentation gives them: the
// builders of fake-gitlab-issue-bodies.ts and fake-gitlab-review-bodies.ts, and GitLab's error answers.
import type { FakeReply } from './fake-gitlab.js';
import * as issueBodies from './fake-gitlab-issue-bodies.js';
import * as reviewBodies from './fake-gitlab-review-bodies.js';

export {
  DEFAULT_PROJECT,
  WEB,
  idFor,
  type IssueFields,
  type NoteFields,
} from './fake-gitlab-issue-bodies.js';
export type { DiffFields, MergeRequestFields } from './fake-gitlab-review-bodies.js';

function error(status: number, message: unknown): FakeReply {
  return { status, body: { message } };
}

/** GitLab's 429: a plain-text body and the RateLimit-* and Retry-After headers. */
function rateLimited(resetEpochS: number, retryAfterS: number): FakeReply {
  return {
    status: 429,
    body: 'Retry later',
    headers: {
      'ratelimit-limit': '600',
      'ratelimit-observed': '601',
      'ratelimit-remaining': '0',
      'ratelimit-reset': String(resetEpochS),
      'ratelimit-resettime': new Date(resetEpochS * 1000).toUTCString(),
      'retry-after': String(retryAfterS),
    },
  };
}

/** Builders for GitLab's documented response bodies. */
export const gl = {
  user: issueBodies.user,
  label: issueBodies.label,
  milestone: issueBodies.milestone,
  project: issueBodies.project,
  issue: issueBodies.issue,
  linkedIssue: issueBodies.linkedIssue,
  note: issueBodies.note,
  discussion: reviewBodies.discussion,
  mergeRequest: reviewBodies.mergeRequest,
  diff: reviewBodies.diff,
  pipeline: reviewBodies.pipeline,
  job: reviewBodies.job,
  error,
  rateLimited,
};
