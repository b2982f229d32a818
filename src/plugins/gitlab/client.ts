// The gitbeaker resources of one gitlab plugin instance, bound per tool call to that call's AbortSignal.
import { type FetchedPage, rateLimitKey } from '../kit/index.js';
import {
  IssueLinks,
  IssueNotes,
  Issues,
  Jobs,
  MergeRequestDiscussions,
  MergeRequestNotes,
  MergeRequests,
  Pipelines,
  ProjectLabels,
  ProjectMilestones,
  Projects,
  Users,
} from '@gitbeaker/rest';
import type { Logger, SharedRateLimits } from '../../contract/index.js';
import type { GitLabSettings } from './options.js';
import { createRequesterFn } from './requester.js';

type ResourceConfig = ConstructorParameters<typeof Issues<false>>[0];

/** The REST resources the tools use; each access builds a light resource object on the call's requester. */
export interface GitLabApi {
  readonly issues: Issues<false>;
  readonly issueNotes: IssueNotes<false>;
  readonly issueLinks: IssueLinks<false>;
  readonly mergeRequests: MergeRequests<false>;
  readonly mergeRequestDiscussions: MergeRequestDiscussions<false>;
  readonly mergeRequestNotes: MergeRequestNotes<false>;
  readonly pipelines: Pipelines<false>;
  readonly jobs: Jobs<false>;
  readonly labels: ProjectLabels<false>;
  readonly milestones: ProjectMilestones<false>;
  readonly projects: Projects<false>;
  readonly users: Users<false>;
}

export interface GitLabClient {
  /** The resources for one call: their requests abort with `signal`. */
  api(signal?: AbortSignal): GitLabApi;
}

/** `logger` is told of each retry; none by default. `rateLimits` (a cluster's) shares the token's rate limit. */
export function createGitLabClient(
  settings: GitLabSettings,
  logger?: Logger,
  rateLimits?: SharedRateLimits,
): GitLabClient {
  const shared = rateLimits
    ? { limits: rateLimits, key: rateLimitKey('gitlab', settings.baseUrl, settings.token) }
    : undefined;
  const auth =
    settings.token === undefined
      ? {}
      : settings.auth === 'bearer'
        ? { oauthToken: settings.token }
        : { token: settings.token };
  return {
    api(signal) {
      const config = {
        host: settings.baseUrl,
        ...auth,
        requesterFn: createRequesterFn(
          { retries: settings.retries, ...(logger ? { logger } : {}), ...(shared ? { shared } : {}) },
          signal,
        ),
      } as ResourceConfig;
      return {
        get issues() {
          return new Issues<false>(config);
        },
        get issueNotes() {
          return new IssueNotes<false>(config);
        },
        get issueLinks() {
          return new IssueLinks<false>(config);
        },
        get mergeRequests() {
          return new MergeRequests<false>(config);
        },
        get mergeRequestDiscussions() {
          return new MergeRequestDiscussions<false>(config);
        },
        get mergeRequestNotes() {
          return new MergeRequestNotes<false>(config);
        },
        get pipelines() {
          return new Pipelines<false>(config);
        },
        get jobs() {
          return new Jobs<false>(config);
        },
        get labels() {
          return new ProjectLabels<false>(config);
        },
        get milestones() {
          return new ProjectMilestones<false>(config);
        },
        get projects() {
          return new Projects<false>(config);
        },
        get users() {
          return new Users<false>(config);
        },
      };
    },
  };
}

/** One page of a list, as gitbeaker returns it with `showExpanded: true` and a `page`. */
/** A page as the kit's windowOfPages reads it; `total` is X-Total, which GitLab leaves out for very large lists. */
export type ListPage<T> = FetchedPage<T>;

interface ExpandedList {
  data: unknown[];
  paginationInfo?: { next?: number | null; total?: number };
}

/** Reads gitbeaker's expanded answer of a paged list; the element type is the caller's view of GitLab's JSON. */
export async function listPage<T>(pending: Promise<unknown>): Promise<ListPage<T>> {
  const { data, paginationInfo } = (await pending) as ExpandedList;
  const total = paginationInfo?.total;
  return {
    items: data as T[],
    hasNext: typeof paginationInfo?.next === 'number' && paginationInfo.next > 0,
    ...(typeof total === 'number' && Number.isFinite(total) ? { total } : {}),
  };
}
