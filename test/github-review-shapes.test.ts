// The github plugin's pure code-review mappers: GitHub JSON to the shared shapes, diff caps, pipeline status
// and order, the discussion order, and the log windows, each on edge cases an end-to-end test would not reach.
import { describe, expect, it } from 'vitest';
import { diffFileFromGitHub, withinDiffBudget } from '../src/plugins/github/diff-shape.js';
import { discussionOrder } from '../src/plugins/github/discussions.js';
import { overallStatus, pipelineFromGitHub, runStatus } from '../src/plugins/github/pipeline-shape.js';
import { mergeRequestFromGitHub, reviewCommentFromGitHub } from '../src/plugins/github/pr-shape.js';
import { threadComments } from '../src/plugins/github/review-threads.js';
import { gh } from './support/fake-github.js';

describe('mergeRequestFromGitHub', () => {
  it('tells merged from closed, and keeps the closing date only for a closed one', () => {
    const merged = mergeRequestFromGitHub(gh.pull(1, { merged_at: '2024-01-02T00:00:00Z' }) as never);
    expect(merged).toMatchObject({ state: 'merged', mergedAt: '2024-01-02T00:00:00Z' });
    expect(merged).not.toHaveProperty('closedAt');
    const closed = mergeRequestFromGitHub(
      gh.pull(2, { state: 'closed', updated_at: '2024-01-03T00:00:00Z' }) as never,
    );
    expect(closed).toMatchObject({ state: 'closed', closedAt: '2024-01-03T00:00:00Z' });
    expect(closed).not.toHaveProperty('mergedAt');
  });

  it('leaves out what GitHub leaves empty and what a list entry does not carry', () => {
    const listed = mergeRequestFromGitHub(gh.pullListed(3, { body: '' }) as never);
    expect(Object.keys(listed)).toEqual([
      'key',
      'title',
      'state',
      'url',
      'author',
      'sourceBranch',
      'targetBranch',
      'createdAt',
      'updatedAt',
    ]);
    expect(
      mergeRequestFromGitHub(gh.pull(3, { comments: 0, review_comments: 0 }) as never).commentCount,
    ).toBe(0);
  });
});

describe('reviewCommentFromGitHub', () => {
  it('places an outdated comment on its original line', () => {
    const raw = { ...gh.reviewComment(5, { path: 'a.ts', line: 9 }), line: null };
    expect(reviewCommentFromGitHub(raw as never)).toMatchObject({ id: '5', path: 'a.ts', line: 9 });
  });
});

describe('diffFileFromGitHub and withinDiffBudget', () => {
  it('maps copied to added and mode-only changes to modified', () => {
    expect(diffFileFromGitHub({ filename: 'b.ts', status: 'copied', previous_filename: 'a.ts' })).toEqual({
      path: 'b.ts',
      status: 'added',
    });
    expect(diffFileFromGitHub({ filename: 'run.sh', status: 'changed' }).status).toBe('modified');
  });

  it('cuts at the last line end within the cap, or at the cap for one long line', () => {
    expect(diffFileFromGitHub({ filename: 'a', status: 'modified', patch: 'ab\ncd\nef' }, 7)).toMatchObject({
      diff: 'ab\ncd',
      truncated: true,
    });
    expect(diffFileFromGitHub({ filename: 'a', status: 'modified', patch: 'abcdefgh' }, 4)).toMatchObject({
      diff: 'abcd',
      truncated: true,
    });
    expect(diffFileFromGitHub({ filename: 'a', status: 'modified', patch: 'ab' }, 4)).not.toHaveProperty(
      'truncated',
    );
  });

  it('keeps leading files within the budget, and always the first', () => {
    const file = (n: number) => ({ path: `f${n}`, status: 'modified' as const, diff: 'x'.repeat(n) });
    expect(withinDiffBudget([file(5), file(5), file(5)], 10).map((f) => f.path)).toEqual(['f5', 'f5']);
    expect(withinDiffBudget([file(50), file(1)], 10).map((f) => f.path)).toEqual(['f50']);
  });
});

describe('pipeline status', () => {
  it('puts GitHub’s conclusions and statuses in the shared words', () => {
    expect(runStatus('completed', 'failure')).toBe('failed');
    expect(runStatus('completed', 'timed_out')).toBe('failed');
    expect(runStatus('completed', 'startup_failure')).toBe('failed');
    expect(runStatus('in_progress', null)).toBe('running');
    expect(runStatus('queued', null)).toBe('pending');
    expect(runStatus('completed', 'success')).toBe('success');
    expect(runStatus('completed', 'cancelled')).toBe('cancelled');
  });

  it('sums up: failed wins, then what still runs, then success when all passed or were skipped', () => {
    expect(overallStatus(['success', 'running', 'failed'])).toBe('failed');
    expect(overallStatus(['success', 'pending', 'running'])).toBe('running');
    expect(overallStatus(['success', 'skipped', 'neutral'])).toBe('success');
    expect(overallStatus(['success', 'cancelled'])).toBe('cancelled');
    expect(overallStatus([])).toBe('none');
  });

  it('orders failed jobs first and keeps GitHub’s order within a rank; the latest workflow run names it', () => {
    const pipeline = pipelineFromGitHub({
      sha: 'abc',
      checkRuns: [
        { id: 1, name: 'a', status: 'completed', conclusion: 'success', check_suite: { id: 7 } },
        { id: 2, name: 'b', status: 'completed', conclusion: 'failure', check_suite: { id: 8 } },
        { id: 3, name: 'c', status: 'queued', conclusion: null },
        { id: 4, name: 'd', status: 'completed', conclusion: 'timed_out' },
      ],
      workflowRuns: [
        {
          id: 70,
          name: 'Lint',
          status: 'completed',
          conclusion: 'success',
          check_suite_id: 7,
          created_at: '2024-01-01T00:00:00Z',
          html_url: 'u70',
        },
        {
          id: 80,
          name: 'Test',
          status: 'completed',
          conclusion: 'failure',
          check_suite_id: 8,
          created_at: '2024-01-02T00:00:00Z',
          html_url: 'u80',
        },
      ],
    });
    expect(pipeline.jobs.map((job) => [job.id, job.status, job.stage])).toEqual([
      ['2', 'failed', 'Test'],
      ['4', 'failed', undefined],
      ['3', 'pending', undefined],
      ['1', 'success', 'Lint'],
    ]);
    expect(pipeline).toMatchObject({
      id: '80',
      status: 'failed',
      url: 'u80',
      createdAt: '2024-01-01T00:00:00Z',
    });
  });
});

describe('threadComments and discussionOrder', () => {
  it('gives every comment of a thread its file, line and resolved state', () => {
    const thread = gh.reviewThread({
      path: 'a.ts',
      line: 4,
      isResolved: true,
      comments: [
        { id: 1, body: 'x' },
        { id: 2, body: 'y' },
      ],
    });
    expect(threadComments(thread as never).map((c) => [c.id, c.path, c.line, c.resolved])).toEqual([
      ['1', 'a.ts', 4, true],
      ['2', 'a.ts', 4, true],
    ]);
  });

  it('keeps a thread together and interleaves by when each began; a tie keeps the thread first', () => {
    const at = (id: string, createdAt: string) => ({ id, body: id, createdAt });
    const order = discussionOrder(
      [[at('t1', '2024-01-02'), at('t1-reply', '2024-01-09')], [at('t2', '2024-01-05')]],
      [at('c1', '2024-01-01'), at('c2', '2024-01-05'), at('c3', '2024-01-03')],
    );
    expect(order.map((c) => c.id)).toEqual(['c1', 't1', 't1-reply', 'c3', 't2', 'c2']);
  });
});
