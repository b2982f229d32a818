// Real-looking results for the format token table: shaped lists built from recorded and REST-shaped payloads,
// and generic JSON lists (uniform, non-uniform, nested), all seeded so every run renders the same text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueFromGitHub, type GitHubIssueJson } from '../../src/plugins/github/issue-shape.js';
import { commentFromGitHub, type GitHubCommentJson } from '../../src/plugins/github/comment-shape.js';
import { type GitHubPullJson, mergeRequestFromGitHub } from '../../src/plugins/github/pr-shape.js';
import {
  type GitLabJobJson,
  type GitLabMergeRequestJson,
  type GitLabPipelineJson,
  mergeRequestFromGitLab,
  pipelineFromGitLab,
} from '../../src/plugins/gitlab/review-shapes.js';
import { comment, issue } from './fake-github-bodies.js';
import { pullListed } from './fake-github-review-bodies.js';
import { gl } from './fake-gitlab-bodies.js';
import { seededRandom } from './random.js';

export interface CorpusCase {
  name: string;
  /** "shaped" for a ShapedResult, "generic" for JSON the format layer knows no shape of. */
  kind: 'shaped' | 'generic';
  data: unknown;
}

const ROOT = join(fileURLToPath(import.meta.url), '../../..');

/** The bodies of a recorded @octokit/fixtures scenario's successful GET requests, in order. */
function recorded(scenario: string): unknown[] {
  const file = join(
    ROOT,
    'node_modules/@octokit/fixtures/scenarios/api.github.com',
    scenario,
    'normalized-fixture.json',
  );
  const requests = JSON.parse(readFileSync(file, 'utf8')) as {
    method: string;
    status: number;
    response: unknown;
  }[];
  return requests.filter((r) => r.method.toLowerCase() === 'get' && r.status === 200).map((r) => r.response);
}

const LOGINS = [
  'alice',
  'bob-k',
  'carol.dev',
  'dmitry',
  'eve_sec',
  'finn',
  'gao-lei',
  'hana',
  'ines',
  'jules',
];
const LABELS = [
  'bug',
  'ui',
  'auth',
  'performance',
  'docs',
  'good first issue',
  'regression',
  'needs: triage',
];
const MILESTONES = ['v2.4', 'v2.5', 'Q3 hardening'];
const SUBJECTS = [
  'Login fails with SSO when the redirect URI has a trailing slash',
  'Search ignores Cyrillic queries ("привет" finds nothing)',
  'Export to CSV drops rows with a | in the name',
  'Dark mode: code blocks unreadable on the settings page',
  'Rate limiter counts retries twice',
  'Upgrade guide misses the config rename',
  'Webhook deliveries time out after 10 s',
  'Crash when a label name contains an emoji 🐛',
  'Pagination skips the last page of audit events',
  'Flaky test: sync worker resumes twice',
  'Memory grows on long-lived HTTP sessions',
  'Typo in the "Getting started" page',
];
const BODIES = [
  'After the 2.3 upgrade, signing in with Okta loops back to the login page.\n\nSteps:\n1. Configure Okta\n2. Sign in\n\nExpected: the dashboard. Actual: the login page, with "invalid state" in the log.',
  'The query `name:"a|b"` returns nothing, although two records match. It looks like the pipe is read as an OR.',
  'Seen on 3 of 40 runs in CI. The worker logs "resuming" twice, then the second resume fails with `EALREADY`.',
  'We should document the rename of `server.port` to `server.listen`, with a before/after example, and say that the old key is refused.',
  'Heap snapshots show one closure per request kept by the session map; after 6 h the process holds 1.2 GB.',
  'Steps: open Settings → Appearance, pick "Dark", open any page with a code block. The text is #222 on #1e1e1e.',
];

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}

function some<T>(random: () => number, values: readonly T[], most: number): T[] {
  const count = Math.floor(random() * (most + 1));
  return [...new Set(Array.from({ length: count }, () => pick(random, values)))];
}

const day = (offset: number, hour = 9) =>
  new Date(Date.UTC(2024, 4, 1 + offset, hour, (offset * 7) % 60)).toISOString();

function githubIssues(count: number): GitHubIssueJson[] {
  const random = seededRandom(19);
  return Array.from({ length: count }, (_, index) => {
    const n = 400 - index;
    const closed = random() < 0.3;
    return issue(n, {
      title: pick(random, SUBJECTS),
      state: closed ? 'closed' : 'open',
      body: random() < 0.85 ? pick(random, BODIES) : null,
      user: pick(random, LOGINS),
      assignees: some(random, LOGINS, 2),
      labels: some(random, LABELS, 3),
      comments: Math.floor(random() * 12),
      created_at: day(index),
      updated_at: day(index + 2, 15),
      milestone: random() < 0.5 ? pick(random, MILESTONES) : null,
    }) as unknown as GitHubIssueJson;
  });
}

function githubPulls(count: number): GitHubPullJson[] {
  const random = seededRandom(45);
  return Array.from({ length: count }, (_, index) => {
    const n = 900 - index;
    const merged = random() < 0.4;
    return pullListed(n, {
      title: `${pick(random, ['Fix', 'Refactor', 'Add tests for', 'Document'])}: ${pick(random, SUBJECTS)}`,
      body: pick(random, BODIES),
      user: pick(random, LOGINS),
      assignees: some(random, LOGINS, 1),
      reviewers: some(random, LOGINS, 2),
      labels: some(random, LABELS, 2),
      head: `fix/${n}-${pick(random, ['sso', 'search', 'export', 'webhooks', 'memory'])}`,
      draft: random() < 0.2,
      created_at: day(index),
      updated_at: day(index + 1, 17),
      merged_at: merged ? day(index + 1, 18) : null,
    }) as unknown as GitHubPullJson;
  });
}

function gitlabMergeRequests(count: number): GitLabMergeRequestJson[] {
  const random = seededRandom(77);
  return Array.from({ length: count }, (_, index) => {
    const iid = 300 - index;
    return gl.mergeRequest(iid, {
      title: pick(random, SUBJECTS),
      state: pick(random, ['opened', 'opened', 'merged', 'closed'] as const),
      description: pick(random, BODIES),
      author: pick(random, LOGINS),
      assignees: some(random, LOGINS, 1),
      reviewers: some(random, LOGINS, 2),
      labels: some(random, LABELS, 3),
      source_branch: `feature/${iid}-${pick(random, ['sso', 'search', 'export'])}`,
      user_notes_count: Math.floor(random() * 9),
    }) as unknown as GitLabMergeRequestJson;
  });
}

function githubComments(count: number): GitHubCommentJson[] {
  const random = seededRandom(7);
  return Array.from({ length: count }, (_, index) =>
    comment(5000 + index, {
      body: pick(random, BODIES),
      user: pick(random, LOGINS),
      created_at: day(index),
      issue: 400,
    }),
  ) as unknown as GitHubCommentJson[];
}

function gitlabPipeline(jobs: number): { pipeline: GitLabPipelineJson; jobs: GitLabJobJson[] } {
  const random = seededRandom(3);
  const stages = ['build', 'test', 'lint', 'deploy'];
  return {
    pipeline: gl.pipeline(8812, { status: 'failed', ref: 'main' }) as unknown as GitLabPipelineJson,
    jobs: Array.from({ length: jobs }, (_, index) =>
      gl.job(
        70_000 + index,
        `${pick(random, stages)}:${pick(random, ['node20', 'node22', 'node24', 'linux', 'windows'])}-${index}`,
        random() < 0.15 ? 'failed' : 'success',
        { stage: pick(random, stages), pipelineId: 8812 },
      ),
    ) as unknown as GitLabJobJson[],
  };
}

/** 40 flat records with the same keys: the case issue 19 measured. */
function uniformRecords(count: number) {
  const random = seededRandom(40);
  return Array.from({ length: count }, (_, index) => ({
    id: 1200 + index,
    name: `svc-${pick(random, ['billing', 'search', 'auth', 'mailer', 'ingest'])}-${index}`,
    status: pick(random, ['running', 'running', 'degraded', 'stopped']),
    region: pick(random, ['eu-west-1', 'us-east-2', 'ap-south-1']),
    owner: pick(random, LOGINS),
    replicas: 1 + Math.floor(random() * 6),
    cpu: Math.round(random() * 1000) / 10,
    healthy: random() < 0.8,
    tags: some(random, ['prod', 'canary', 'pci', 'batch', 'internal'], 3),
    deployedAt: day(index % 20, 11),
    note: pick(random, [
      'Scaled up for the "spring sale"',
      'Pinned to node pool b, see runbook',
      'Owner changed; on-call rota updated',
      'Uses the legacy TLS chain until Q3',
    ]),
  }));
}

/** 40 records of several kinds, as an activity feed returns them: keys differ from kind to kind. */
function mixedEvents(count: number) {
  const random = seededRandom(12);
  return Array.from({ length: count }, (_, index) => {
    const at = day(index % 25, 8 + (index % 9));
    switch (index % 4) {
      case 0:
        return {
          type: 'push',
          actor: pick(random, LOGINS),
          ref: 'refs/heads/main',
          commits: 1 + (index % 5),
          at,
        };
      case 1:
        return {
          type: 'issue_comment',
          actor: pick(random, LOGINS),
          issue: 400 - index,
          excerpt: pick(random, BODIES),
          at,
        };
      case 2:
        return {
          type: 'label',
          actor: pick(random, LOGINS),
          issue: 400 - index,
          added: some(random, LABELS, 2),
        };
      default:
        return {
          type: 'release',
          tag: `v2.${index}.0`,
          draft: random() < 0.3,
          assets: [{ name: 'app.tar.gz', size: 18_000_000 + index }],
          at,
        };
    }
  });
}

/** 40 records with nested objects and arrays of objects, as many REST APIs return them. */
function nestedRecords(count: number) {
  const random = seededRandom(21);
  return Array.from({ length: count }, (_, index) => ({
    id: 3000 + index,
    title: pick(random, SUBJECTS),
    owner: { login: pick(random, LOGINS), type: 'User' },
    checks: [
      { name: 'build', conclusion: random() < 0.9 ? 'success' : 'failure' },
      { name: 'test', conclusion: random() < 0.8 ? 'success' : 'failure' },
    ],
    labels: some(random, LABELS, 2),
    updated: day(index, 12),
  }));
}

/** Every case of the table, shaped first. */
export function formatCorpus(): CorpusCase[] {
  const paginated = recorded('paginate-issues').flat() as GitHubIssueJson[];
  const search = recorded('search-issues')[0] as { total_count: number; items: GitHubIssueJson[] };
  const pipeline = gitlabPipeline(25);
  const issues = githubIssues(40);
  return [
    {
      name: 'octokit paginate-issues (13 issues)',
      kind: 'shaped',
      data: { kind: 'issue_list', items: paginated.map(issueFromGitHub), page: { offset: 0, total: 13 } },
    },
    {
      name: 'octokit search-issues (2 issues)',
      kind: 'shaped',
      data: { kind: 'issue_list', items: search.items.map(issueFromGitHub), page: { offset: 0, total: 2 } },
    },
    {
      name: 'GitHub issues (40)',
      kind: 'shaped',
      data: {
        kind: 'issue_list',
        items: issues.map(issueFromGitHub),
        page: { offset: 0, limit: 40, total: 143 },
      },
    },
    {
      name: 'GitHub pull requests (30)',
      kind: 'shaped',
      data: { kind: 'merge_request_list', items: githubPulls(30).map(mergeRequestFromGitHub) },
    },
    {
      name: 'GitLab merge requests (30)',
      kind: 'shaped',
      data: { kind: 'merge_request_list', items: gitlabMergeRequests(30).map(mergeRequestFromGitLab) },
    },
    {
      name: 'GitHub comments (20)',
      kind: 'shaped',
      data: { kind: 'comment_list', items: githubComments(20).map(commentFromGitHub) },
    },
    {
      name: 'GitHub issue with 12 comments',
      kind: 'shaped',
      data: {
        kind: 'issue',
        item: issueFromGitHub(issues[0] as GitHubIssueJson),
        comments: githubComments(12).map(commentFromGitHub),
      },
    },
    {
      name: 'GitLab pipeline (25 jobs)',
      kind: 'shaped',
      data: { kind: 'pipeline', item: pipelineFromGitLab(pipeline.pipeline, pipeline.jobs) },
    },
    { name: 'uniform records (40)', kind: 'generic', data: uniformRecords(40) },
    { name: 'octokit labels (9)', kind: 'generic', data: recorded('labels')[0] },
    { name: 'mixed events (40)', kind: 'generic', data: mixedEvents(40) },
    { name: 'nested records (40)', kind: 'generic', data: nestedRecords(40) },
    { name: 'octokit raw issues (13)', kind: 'generic', data: paginated },
    { name: 'octokit raw search result', kind: 'generic', data: search },
  ];
}
