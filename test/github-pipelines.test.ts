// get_pipeline and get_job_logs on GitHub end to end: the check runs and workflow runs of a head commit, failed
// jobs first; a job's log downloaded through GitHub's redirect without the token, searched or paged, and bounded.
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_LOG_CHARS, MAX_LOG_LINES } from '../src/plugins/kit/index.js';
import { gh } from './support/fake-github.js';
import { type GitHubHost, TOKEN, startGitHubHost } from './support/github-plugin-host.js';
import { HEAD_SHA, JOBS, routeCodeReview } from './support/github-review-fixture.js';

const REPO = '/repos/octo-org/octo-repo';
let host: GitHubHost;

beforeEach(async () => {
  host = await startGitHubHost();
  routeCodeReview(host.fake);
});
afterEach(() => host.close());

describe('get_pipeline', () => {
  it('reads the checks of a pull request’s head commit, failed jobs first, stage from the workflow', async () => {
    const result = await host.call('get_pipeline', { key: '#12' });

    expect(host.calls().map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${REPO}/pulls/12`,
      `GET ${REPO}/commits/${HEAD_SHA}/check-runs`,
      `GET ${REPO}/commits/${HEAD_SHA}/status`,
      `GET ${REPO}/actions/runs`,
    ]);
    expect(host.calls()[3]?.query).toEqual({ head_sha: HEAD_SHA, per_page: '100' });
    expect(result.structuredContent).toEqual({
      kind: 'pipeline',
      item: {
        id: '1',
        status: 'failed',
        ref: 'feature-12',
        sha: HEAD_SHA,
        url: 'https://github.com/octo-org/octo-repo/pull/12/checks',
        createdAt: '2017-10-10T16:00:00Z',
        jobs: [
          {
            id: String(JOBS.lint),
            name: 'lint',
            status: 'failed',
            stage: 'CI',
            url: `https://github.com/octo-org/octo-repo/actions/runs/1/job/${JOBS.lint}`,
            durationS: 0,
          },
          expect.objectContaining({ id: String(JOBS.test), name: 'test', status: 'failed' }),
          expect.objectContaining({
            id: String(JOBS.build),
            name: 'build',
            status: 'success',
            durationS: 90,
          }),
        ],
      },
    });
    const text = (result.content[0] as { text: string }).text;
    expect(text).toMatch(/Pipeline 1/);
    expect(text.indexOf('lint')).toBeLessThan(text.indexOf('build'));
  });

  it('reads a branch’s head, or the default branch’s when none is given', async () => {
    await host.text('get_pipeline', { branch: 'release' });
    await host.text('get_pipeline', {});
    expect(host.calls().map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET ${REPO}/branches/release`,
      `GET ${REPO}/commits/${HEAD_SHA}/check-runs`,
      `GET ${REPO}/commits/${HEAD_SHA}/status`,
      `GET ${REPO}/actions/runs`,
      `GET ${REPO}`,
      `GET ${REPO}/branches/main`,
      `GET ${REPO}/commits/${HEAD_SHA}/check-runs`,
      `GET ${REPO}/commits/${HEAD_SHA}/status`,
      `GET ${REPO}/actions/runs`,
    ]);
  });

  it('says "running" while a job runs, and "none" when nothing ran', async () => {
    host.fake.route('GET', `${REPO}/commits/:ref/check-runs`, {
      status: 200,
      body: gh.checkRunList([
        gh.checkRun(1, { conclusion: 'success' }),
        gh.checkRun(2, { status: 'in_progress' }),
      ]),
    });
    host.fake.route('GET', `${REPO}/actions/runs`, { status: 200, body: gh.workflowRunList([]) });
    expect(await host.call('get_pipeline', { branch: 'main' })).toMatchObject({
      structuredContent: {
        item: { status: 'running', id: HEAD_SHA, jobs: [{ id: '2', status: 'running' }, { id: '1' }] },
      },
    });
    host.fake.route('GET', `${REPO}/commits/:ref/check-runs`, { status: 200, body: gh.checkRunList([]) });
    expect(await host.call('get_pipeline', { branch: 'main' })).toMatchObject({
      structuredContent: { item: { status: 'none', jobs: [] } },
    });
  });

  it('refuses a branch and a pull request together, and names a missing branch', async () => {
    expect(await host.error('get_pipeline', { branch: 'main', key: '#12' })).toBe(
      'give "branch" or "key" (a pull request), not both: a pull request runs on its own head commit',
    );
    host.fake.route('GET', `${REPO}/branches/:branch`, gh.error(404, 'Branch not found'));
    expect(await host.error('get_pipeline', { branch: 'nope' })).toBe(
      'branch "nope" of octo-org/octo-repo was not found on GitHub',
    );
  });

  it('projects only failed jobs into get_job_logs calls the schema accepts', async () => {
    const result = await host.call('get_pipeline', { key: '#12' });
    const entry = host.connected.host.plugins
      .publishedTools()
      .find((e) => e.ref.published === 'github__get_pipeline');
    const link = {
      tool: 'github__get_job_logs',
      probability: 0.5,
      projection: 'item.jobs[*].id',
      projectionArg: 'job_id',
    };
    const sets = entry?.enrichers
      .map((enricher) => enricher.projectArgs?.(entry.ref, result, link))
      .find(Boolean);
    expect(sets).toEqual([{ job_id: String(JOBS.lint) }, { job_id: String(JOBS.test) }]);
    for (const args of sets ?? [])
      expect(() => host.connected.host.tools.prepare(link.tool, args)).not.toThrow();
  });
});

describe('get_job_logs', () => {
  const text = (result: CallToolResult) => (result.content[0] as { text: string }).text;

  it('follows GitHub’s redirect to the log without the token, and pages numbered lines', async () => {
    const result = await host.call('get_job_logs', { job_id: String(JOBS.test) });
    const [api, storage] = host.calls();
    expect(api).toMatchObject({
      method: 'GET',
      path: `${REPO}/actions/jobs/${JOBS.test}/logs`,
      headers: { authorization: `token ${TOKEN}` },
    });
    expect(storage?.path).toBe(`/_storage/job-${JOBS.test}.txt`);
    expect(storage?.headers.authorization).toBeUndefined();
    expect(result.structuredContent).toBeUndefined();
    expect(text(result)).toBe(
      [
        `Log of job ${JOBS.test}, lines 1–6 of 6 (the end).`,
        '',
        '1: ##[group]Run npm test',
        '2: npm test',
        '3: ✓ parses keys',
        '4: ✗ maps sides',
        '5: Error: expected LEFT, got RIGHT',
        '6: ##[error]Process completed with exit code 1.',
      ].join('\n'),
    );
    expect(text(await host.call('get_job_logs', { job_id: String(JOBS.test), offset: 2, limit: 2 }))).toBe(
      [
        `Log of job ${JOBS.test}, lines 3–4 of 6. Call again with offset=4 for the next lines; the last 2 lines start at offset=4.`,
        '',
        '3: ✓ parses keys',
        '4: ✗ maps sides',
      ].join('\n'),
    );
  });

  it('returns the lines around each match, case-insensitive for a lower-case pattern', async () => {
    const result = await host.call('get_job_logs', { job_id: '502', pattern: 'error', context_lines: 1 });
    expect(text(result)).toBe(
      [
        'Log of job 502, 6 lines; 2 lines match /error/i, shown with 1 line of context.',
        '',
        '4- ✗ maps sides',
        '5: Error: expected LEFT, got RIGHT',
        '6: ##[error]Process completed with exit code 1.',
      ].join('\n'),
    );
    const exact = await host.call('get_job_logs', { job_id: '502', pattern: 'Error:', context_lines: 0 });
    expect(text(exact)).toContain('1 line match /Error:/,');
  });

  it('refuses a bad pattern or job id before asking GitHub', async () => {
    expect(await host.error('get_job_logs', { job_id: '502', pattern: '(unclosed' })).toBe(
      'parameter "pattern" is "(unclosed", which is not a valid regular expression (Invalid regular expression: /(unclosed/i: Unterminated group)',
    );
    expect(await host.error('get_job_logs', { job_id: 'lint' })).toBe(
      'parameter "job_id" is "lint"; a job id is a number, as get_pipeline lists it',
    );
    expect(host.calls()).toEqual([]);
  });

  it('404 says only Actions jobs have logs', async () => {
    host.fake.route('GET', `${REPO}/actions/jobs/:id/logs`, gh.error(404, 'Not Found'));
    expect(await host.error('get_job_logs', { job_id: '77' })).toBe(
      "the log of job 77 of octo-org/octo-repo was not found on GitHub; only GitHub Actions jobs have logs here (not other apps' checks), and GitHub deletes old ones",
    );
  });

  it('says when the log storage refuses the signed link, without showing it', async () => {
    host.fake.route('GET', `${REPO}/actions/jobs/:id/logs`, () => ({
      status: 302,
      headers: {
        location: host.fake.store('expired.txt', gh.error(403, 'Signature expired')) + '?sig=s3cr3t',
      },
    }));
    const message = await host.error('get_job_logs', { job_id: '77' });
    expect(message).toBe(
      "GitHub's log storage answered 403 for the log of job 77 of octo-org/octo-repo; the download link may have expired, try again",
    );
    expect(message).not.toContain('s3cr3t');
  });

  it('never returns more than the line and size caps, and says where to go on', async () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ${'y'.repeat(150)}`).join('\n');
    host.fake.route('GET', `${REPO}/actions/jobs/:id/logs`, () => ({
      status: 302,
      headers: {
        location: host.fake.store('big.txt', {
          status: 200,
          headers: { 'content-type': 'text/plain' },
          body: lines,
        }),
      },
    }));
    const paged = text(await host.call('get_job_logs', { job_id: '9', limit: 2000, format: 'json' }));
    // The format layer may cut the text further to its token budget; the header comes first either way.
    expect(paged).toMatch(
      /^Log of job 9, lines 1–\d+ of 5000\. Call again with offset=\d+ for the next lines/,
    );
    const shownTo = Number(/lines 1–(\d+)/.exec(paged)?.[1]);
    expect(shownTo).toBeLessThanOrEqual(MAX_LOG_LINES);
    expect(shownTo * 160).toBeLessThanOrEqual(MAX_LOG_CHARS + 200);

    const searched = text(
      await host.call('get_job_logs', { job_id: '9', pattern: 'line', limit: 10, context_lines: 0 }),
    );
    expect(searched.split('\n')[0]).toBe(
      'Log of job 9, 5000 lines; 5000 lines match /line/i. Showing the first 10 with 0 lines of context; call again with offset=10 to search on from line 11.',
    );
  });
});
