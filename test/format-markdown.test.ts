// The markdown format: headings with counts, a table per list, a field list and sections per detail.
import { describe, expect, it } from 'vitest';
import type { CommentShape, IssueShape, MergeRequestShape } from '../src/contract/index.js';
import { renderStructured } from '../src/format/index.js';

const issue13: IssueShape = {
  key: '#13',
  title: 'Test issue 13 | with a pipe',
  state: 'open',
  url: 'https://github.com/o/r/issues/13',
  author: 'alice',
  assignees: ['bob', 'carol'],
  labels: ['bug', 'needs\ntriage'],
  createdAt: '2020-05-01T10:00:00Z',
  updatedAt: '2020-05-02T11:30:00Z',
  commentCount: 2,
  body: 'First words of the body.\n\nSecond paragraph.',
};
const issue12: IssueShape = {
  key: '#12',
  title: 'Ошибка при сохранении 😭',
  state: 'closed',
  author: 'дмитрий',
  createdAt: '2020-04-01T08:00:00Z',
  closedAt: '2020-04-03T09:15:00+02:00',
  commentCount: 0,
};
const comments: CommentShape[] = [
  {
    id: '901',
    author: 'bob',
    createdAt: '2020-05-02T09:00:00Z',
    body: 'Reproduced on main.',
    url: 'https://github.com/o/r/issues/13#c901',
  },
  {
    id: '902',
    author: 'carol',
    createdAt: '2020-05-02T10:00:00Z',
    updatedAt: '2020-05-03T10:00:00Z',
    body: 'Fixed in #14.',
  },
];

describe('markdown format', () => {
  it('renders an issue list as a counted heading, a table with only the columns used, and the next-page hint', () => {
    const { text, trimmed } = renderStructured(
      { kind: 'issue_list', items: [issue13, issue12], page: { offset: 0, total: 143 } },
      'markdown',
    );
    expect(text).toBe(
      [
        '## Issues (2 of 143)',
        '',
        '| Key | Title | State | Author | Assignees | Labels | Created | Updated | Closed | Comments | Excerpt |',
        '|---|---|---|---|---|---|---|---|---|---|---|',
        '| [#13](https://github.com/o/r/issues/13) | Test issue 13 \\| with a pipe | open | alice | bob, carol | bug, needs<br>triage | 2020-05-01 | 2020-05-02 |  | 2 | First words of the body. Second paragraph. |',
        '| #12 | Ошибка при сохранении 😭 | closed | дмитрий |  |  | 2020-04-01 |  | 2020-04-03 | 0 |  |',
        '',
        'Showing 2 of 143 issues; call again with offset=2 for the next ones.',
      ].join('\n'),
    );
    expect(trimmed).toBeUndefined();
  });

  it('says nothing about more when the list is the whole set, and "No issues." when it is empty', () => {
    const whole = renderStructured(
      { kind: 'issue_list', items: [issue12], page: { offset: 0, total: 1 } },
      'markdown',
    );
    expect(whole.text.split('\n')[0]).toBe('## Issues (1)');
    expect(whole.text).not.toContain('Showing');
    expect(renderStructured({ kind: 'issue_list', items: [] }, 'markdown').text).toBe(
      '## Issues (0)\n\nNo issues.',
    );
  });

  it('renders an issue in full: title heading, field list, description and comments as sections', () => {
    const { text } = renderStructured(
      { kind: 'issue', item: { ...issue13, milestone: 'v2', customFields: { 'Story points': 3 } }, comments },
      'markdown',
    );
    expect(text).toBe(
      [
        '## #13 Test issue 13 | with a pipe',
        '',
        '- **State:** open',
        '- **URL:** https://github.com/o/r/issues/13',
        '- **Author:** alice',
        '- **Assignees:** bob, carol',
        '- **Labels:** bug, needs triage',
        '- **Milestone:** v2',
        '- **Created:** 2020-05-01 10:00 UTC',
        '- **Updated:** 2020-05-02 11:30 UTC',
        '- **Comments:** 2',
        '- **Fields:** Story points: 3',
        '',
        '### Description',
        '',
        'First words of the body.',
        '',
        'Second paragraph.',
        '',
        '### Comments (2)',
        '',
        '#### [901](https://github.com/o/r/issues/13#c901) · by bob · 2020-05-02',
        '',
        'Reproduced on main.',
        '',
        '#### 902 · by carol · 2020-05-02 · edited 2020-05-03',
        '',
        'Fixed in #14.',
      ].join('\n'),
    );
  });

  it('leaves absent fields out of details and never prints "undefined"', () => {
    const { text } = renderStructured(
      { kind: 'issue', item: { key: 'PROJ-7', title: 'Bare', state: 'To Do' } },
      'markdown',
    );
    expect(text).toBe('## PROJ-7 Bare\n\n- **State:** To Do');
  });

  it('renders merge requests with branches, reviewers, draft and merged date', () => {
    const mr: MergeRequestShape = {
      key: '!45',
      title: 'Add search',
      state: 'merged',
      url: 'https://gitlab.example.com/g/p/-/merge_requests/45',
      author: 'dana',
      reviewers: ['eve'],
      sourceBranch: 'feature/search',
      targetBranch: 'main',
      draft: true,
      createdAt: '2021-01-01T00:00:00Z',
      mergedAt: '2021-01-05T12:00:00Z',
      body: 'Adds a search box.',
    };
    const list = renderStructured({ kind: 'merge_request_list', items: [mr] }, 'markdown').text;
    expect(list).toBe(
      [
        '## Merge requests (1)',
        '',
        '| Key | Title | State | Draft | Author | Reviewers | Branches | Created | Merged | Excerpt |',
        '|---|---|---|---|---|---|---|---|---|---|',
        '| [!45](https://gitlab.example.com/g/p/-/merge_requests/45) | Add search | merged | yes | dana | eve | feature/search → main | 2021-01-01 | 2021-01-05 | Adds a search box. |',
      ].join('\n'),
    );
    const detail = renderStructured({ kind: 'merge_request', item: mr }, 'markdown').text;
    expect(detail).toContain('## !45 Add search\n\n- **State:** merged\n');
    expect(detail).toContain('- **Branches:** feature/search → main\n');
    expect(detail).toContain('- **Merged:** 2021-01-05 12:00 UTC');
    expect(detail.endsWith('### Description\n\nAdds a search box.')).toBe(true);
  });

  it('fences each diff with a fence longer than any backtick run inside it', () => {
    const diff = '@@ -1 +1 @@\n-const a = `x`;\n+const a = ```y```;';
    const { text } = renderStructured(
      {
        kind: 'diff_list',
        items: [
          { path: 'src/a.ts', status: 'modified', additions: 1, deletions: 1, diff },
          { path: 'src/new.ts', oldPath: 'src/old.ts', status: 'renamed' },
        ],
      },
      'markdown',
    );
    expect(text).toBe(
      [
        '## Changed files (2)',
        '',
        '### src/a.ts [modified] · +1 · -1',
        '',
        '````diff',
        diff,
        '````',
        '',
        '### src/old.ts → src/new.ts [renamed]',
      ].join('\n'),
    );
  });

  it('renders a pipeline with its jobs as a table', () => {
    const { text } = renderStructured(
      {
        kind: 'pipeline',
        item: {
          id: '77',
          status: 'failed',
          ref: 'main',
          sha: 'abc123',
          url: 'https://ci/77',
          jobs: [
            { id: '1', name: 'test', status: 'failed', stage: 'test', durationS: 42, url: 'https://ci/j/1' },
            { id: '2', name: 'lint', status: 'success' },
          ],
        },
      },
      'markdown',
    );
    expect(text).toBe(
      [
        '## Pipeline 77',
        '',
        '- **State:** failed',
        '- **URL:** https://ci/77',
        '- **Ref:** main',
        '- **Commit:** abc123',
        '',
        '### Jobs (2)',
        '',
        '| Job | State | Stage | Duration | Id |',
        '|---|---|---|---|---|',
        '| [test](https://ci/j/1) | failed | test | 42 | 1 |',
        '| lint | success |  |  | 2 |',
      ].join('\n'),
    );
  });
});
