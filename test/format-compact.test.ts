// The compact format: one line per item with the fields that matter, a few lines per detail.
import { describe, expect, it } from 'vitest';
import type { IssueShape } from '../src/contract/index.js';
import { renderStructured } from '../src/format/index.js';

const issue13: IssueShape = {
  key: '#13',
  title: 'Test issue 13',
  state: 'open',
  url: 'https://github.com/o/r/issues/13',
  author: 'alice',
  assignees: ['bob', 'carol'],
  labels: ['bug', 'ui'],
  createdAt: '2020-05-01T10:00:00Z',
  updatedAt: '2020-05-02T11:30:00Z',
  commentCount: 2,
  body: 'First words of the body, and then a good deal more text that runs past the length of an excerpt for sure.',
};

/** A compact table line: cells split by tabs. */
const row = (...cells: string[]) => cells.join('\t');

describe('compact format', () => {
  it('renders a list as a table: a header row of the columns used, then one line per issue', () => {
    const { text } = renderStructured(
      {
        kind: 'issue_list',
        items: [
          issue13,
          {
            key: 'PROJ-7',
            title: 'Задача',
            state: 'In Progress',
            priority: 'High',
            type: 'Bug',
            parent: 'PROJ-1',
            commentCount: 1,
          },
        ],
        page: { offset: 0, total: 2 },
      },
      'compact',
    );
    expect(text).toBe(
      [
        'Issues (2):',
        row(
          ...['key', 'title', 'state', 'author', 'assignees', 'labels', 'type', 'priority', 'parent'],
          ...['created', 'updated', 'comments', 'url', 'excerpt'],
        ),
        row(
          ...['#13', 'Test issue 13', 'open', 'alice', 'bob,carol', 'bug,ui', '', '', ''],
          ...['2020-05-01', '2020-05-02', '2', 'https://github.com/o/r/issues/13'],
          'First words of the body, and then a good deal more text that runs past the…',
        ),
        row(
          ...['PROJ-7', 'Задача', 'In Progress', '', '', '', 'Bug', 'High', 'PROJ-1'],
          ...['', '', '1', '', ''],
        ),
      ].join('\n'),
    );
  });

  it('renders a detail as its summary line with full timestamps, the body, then the comments', () => {
    const { text } = renderStructured(
      {
        kind: 'issue',
        item: { ...issue13, closedAt: '2020-05-03T00:00:00Z', body: 'Line one.\nLine two.' },
        comments: [{ id: '901', author: 'bob', createdAt: '2020-05-02T09:00:00Z', body: 'Same here 👍' }],
      },
      'compact',
    );
    expect(text).toBe(
      [
        '#13 [open] Test issue 13 · by alice · → bob,carol · [bug,ui] · created 2020-05-01 10:00 UTC · updated 2020-05-02 11:30 UTC · closed 2020-05-03 00:00 UTC · 2 comments · https://github.com/o/r/issues/13',
        '',
        'Line one.',
        'Line two.',
        '',
        'Comments (1):',
        '',
        '901 · by bob · 2020-05-02',
        'Same here 👍',
      ].join('\n'),
    );
  });

  it('renders merge requests and jobs as tables, review comments and diffs as a line and their text', () => {
    const mrs = renderStructured(
      {
        kind: 'merge_request_list',
        items: [
          {
            key: '#45',
            title: 'Add search',
            state: 'open',
            draft: true,
            author: 'dana',
            reviewers: ['eve', 'finn'],
            sourceBranch: 'search',
            targetBranch: 'main',
          },
        ],
      },
      'compact',
    ).text;
    expect(mrs).toBe(
      [
        'Merge requests (1):',
        row('key', 'title', 'state', 'draft', 'author', 'reviewers', 'branches'),
        row('#45', 'Add search', 'open', 'yes', 'dana', 'eve,finn', 'search → main'),
      ].join('\n'),
    );

    const notes = renderStructured(
      {
        kind: 'comment_list',
        items: [
          { id: 'n1', author: 'eve', body: 'Rename this.', path: 'src/a.ts', line: 12, resolved: false },
        ],
      },
      'compact',
    ).text;
    expect(notes).toBe('Comments (1):\n\nn1 · by eve · on src/a.ts:12 · unresolved\nRename this.');

    const diffs = renderStructured(
      {
        kind: 'diff_list',
        items: [{ path: 'a.txt', status: 'added', additions: 2, diff: '+one\n+two', truncated: true }],
      },
      'compact',
    ).text;
    expect(diffs).toBe('Changed files (1):\n\na.txt [added] · +2 · diff cut by the provider\n+one\n+two');

    const pipeline = renderStructured(
      {
        kind: 'pipeline',
        item: {
          id: '9',
          status: 'running',
          ref: 'main',
          jobs: [{ id: '1', name: 'build', status: 'running', durationS: 30 }],
        },
      },
      'compact',
    ).text;
    expect(pipeline).toBe(
      [
        'Pipeline 9 [running] · ref main',
        '',
        'Jobs (1):',
        row('job', 'state', 'duration (s)', 'id'),
        row('build', 'running', '30', '1'),
      ].join('\n'),
    );
  });
});

describe('compact tables', () => {
  it('keeps every cell on one line, so a tab is always a separator; quotes and pipes stay as they are', () => {
    const { text } = renderStructured(
      {
        kind: 'issue_list',
        items: [
          {
            key: '#7',
            title: 'Export\tdrops "quoted" | rows',
            state: 'open',
            labels: ['needs: triage', 'good first issue'],
            body: 'Line one says "hi".\n\nLine\ttwo.',
          },
          { key: '#8', title: 'Labels with commas', state: 'open', labels: ['a, b', 'c'] },
        ],
      },
      'compact',
    );
    expect(text.split('\n')).toEqual([
      'Issues (2):',
      row('key', 'title', 'state', 'labels', 'excerpt'),
      row(
        '#7',
        'Export drops "quoted" | rows',
        'open',
        'needs: triage,good first issue',
        'Line one says "hi". Line two.',
      ),
      row('#8', 'Labels with commas', 'open', '["a, b","c"]', ''),
    ]);
  });

  it('says "none" for an empty list', () => {
    expect(renderStructured({ kind: 'issue_list', items: [] }, 'compact').text).toBe('Issues: none.');
  });
});

describe('compact details', () => {
  it('shows a list whose elements hold a comma as JSON in the summary line too', () => {
    const { text } = renderStructured(
      { kind: 'issue', item: { key: '#3', title: 'T', state: 'open', labels: ['a, b', 'c'] } },
      'compact',
    );
    expect(text).toBe('#3 [open] T · [["a, b","c"]]');
  });
});
