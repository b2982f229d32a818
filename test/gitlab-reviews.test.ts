// The gitlab plugin's review tools: threads with positions, paged diffs with a cap, and comments on diff lines.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gl } from './support/fake-gitlab-bodies.js';
import {
  type GitLabRig,
  PROJECT_PATH,
  startGitLabRig,
  structured,
  text,
} from './support/fake-gitlab-harness.js';

let rig: GitLabRig;
beforeEach(async () => {
  rig = await startGitLabRig();
  await rig.metadataLoaded();
});
afterEach(async () => rig.close());

const MR = `${PROJECT_PATH}/merge_requests/11`;

describe('gitlab get_merge_request_discussions', () => {
  it('flattens threads to notes with their diff position and resolved state, leaving out system notes', async () => {
    rig.list('GET', '/projects/:project/merge_requests/:iid/discussions', [
      gl.discussion('6a9c1750b37d513a43987b574953fceb50b03ce7', [
        gl.note(1126, {
          noteable_type: 'MergeRequest',
          body: 'Why this?',
          position: { new_path: 'src/app.ts', new_line: 27, old_line: 27 },
        }),
        gl.note(1129, { noteable_type: 'MergeRequest', body: 'Because', resolved: true }),
      ]),
      gl.discussion('87805b7c09016a7058e91bdbe7b29d1f284a39e6', [
        gl.note(1128, { noteable_type: 'MergeRequest', system: true, body: 'added 1 commit' }),
      ]),
      gl.discussion('9d0c8b3f0e3c1f0d8c7f6e5d4c3b2a1908f7e6d5', [
        gl.note(1130, {
          noteable_type: 'MergeRequest',
          body: 'Removed on purpose?',
          position: { new_path: 'src/old.ts', new_line: null, old_line: 4 },
          resolved: true,
        }),
      ]),
    ]);
    const result = await rig.call('get_merge_request_discussions', { key: '!11' });
    const url = 'https://gitlab.example.com/group/sub/project/-/merge_requests/11';
    expect(structured(result)).toEqual({
      kind: 'comment_list',
      items: [
        {
          id: '1126',
          body: 'Why this?',
          author: 'root',
          createdAt: '2024-01-04T15:31:46.176Z',
          url: `${url}#note_1126`,
          path: 'src/app.ts',
          line: 27,
          resolved: false,
        },
        {
          id: '1129',
          body: 'Because',
          author: 'root',
          createdAt: '2024-01-04T15:31:46.176Z',
          url: `${url}#note_1129`,
          resolved: true,
        },
        {
          id: '1130',
          body: 'Removed on purpose?',
          author: 'root',
          createdAt: '2024-01-04T15:31:46.176Z',
          url: `${url}#note_1130`,
          path: 'src/old.ts',
          line: 4,
          resolved: true,
        },
      ],
      page: { offset: 0, limit: 20, total: 3 },
    });
    expect(text(result)).toContain('src/app.ts:27');
  });

  it('reads more than one page of threads', async () => {
    const threads = Array.from({ length: 130 }, (_, i) =>
      gl.discussion(`d${i}`, [gl.note(i + 1, { noteable_type: 'MergeRequest' })]),
    );
    rig.list('GET', '/projects/:project/merge_requests/:iid/discussions', threads);
    const result = await rig.call('get_merge_request_discussions', { key: 11, offset: 95, limit: 10 });
    const data = structured(result) as { items: { id: string }[]; page: unknown };
    expect(data.items.map((c) => c.id)).toEqual([
      '96',
      '97',
      '98',
      '99',
      '100',
      '101',
      '102',
      '103',
      '104',
      '105',
    ]);
    expect(rig.fake.sent('GET', `${MR}/discussions`).map((r) => [r.query.page, r.query.per_page])).toEqual([
      ['1', '100'],
      ['2', '100'],
    ]);
  });
});

describe('gitlab get_merge_request_diffs', () => {
  it('pages the changed files, counts lines, and cuts a long diff with a flag and where to see the rest', async () => {
    const long = `@@ -1,3 +1,400 @@\n${Array.from({ length: 400 }, (_, i) => `+line ${i} ${'x'.repeat(40)}`).join('\n')}\n`;
    const files = [
      gl.diff('README.md', { diff: '@@ -1 +1 @@\n-Title\n+README\n' }),
      gl.diff('src/new.ts', { new_file: true, diff: '@@ -0,0 +1,2 @@\n+a\n+b\n' }),
      gl.diff('src/big.ts', { diff: long }),
      gl.diff('lib/moved.ts', { old_path: 'src/moved.ts', renamed_file: true, diff: '' }),
      gl.diff('gone.txt', { deleted_file: true, diff: '@@ -1 +0,0 @@\n-bye\n' }),
    ];
    rig.list('GET', '/projects/:project/merge_requests/:iid/diffs', files);
    const first = await rig.call('get_merge_request_diffs', { key: '!11', limit: 2 });
    expect(structured(first)).toEqual({
      kind: 'diff_list',
      items: [
        {
          path: 'README.md',
          status: 'modified',
          additions: 1,
          deletions: 1,
          diff: '@@ -1 +1 @@\n-Title\n+README\n',
        },
        {
          path: 'src/new.ts',
          status: 'added',
          additions: 2,
          deletions: 0,
          diff: '@@ -0,0 +1,2 @@\n+a\n+b\n',
        },
      ],
      page: { offset: 0, limit: 2, total: 5 },
    });
    expect(text(first)).toContain('offset=2');
    const rest = await rig.call('get_merge_request_diffs', { key: '!11', offset: 2, limit: 20 });
    const items = (structured(rest) as { items: Record<string, unknown>[] }).items;
    expect(items.map((f) => [f.path, f.status, f.oldPath])).toEqual([
      ['src/big.ts', 'modified', undefined],
      ['lib/moved.ts', 'renamed', 'src/moved.ts'],
      ['gone.txt', 'deleted', undefined],
    ]);
    const big = items[0] as { diff: string; truncated: boolean; additions: number };
    expect(big.truncated).toBe(true);
    expect(big.additions).toBe(400);
    expect(big.diff.length).toBeLessThan(20_200);
    expect(big.diff).toMatch(
      /more characters of this file's diff not shown; the whole diff is at https:\/\/gitlab\.example\.com\/group\/sub\/project\/-\/merge_requests\/11\/diffs$/,
    );
  });
});

describe('gitlab create_merge_request_comment', () => {
  // Line 1-2 kept, old 3 removed, new 3-4 added, then kept lines; a second hunk further down.
  const appDiff = [
    '@@ -1,5 +1,6 @@',
    ' import a',
    ' import b',
    '-const x = 1;',
    '+const x = 2;',
    '+const y = 3;',
    ' ',
    ' export {}',
    '@@ -40,3 +41,4 @@',
    ' one',
    '+two',
    ' three',
    ' four',
    '',
  ].join('\n');

  beforeEach(() => {
    rig.fake.route('GET', '/projects/:project/merge_requests/:iid', (_r, p) => ({
      status: 200,
      body: gl.mergeRequest(Number(p.iid)),
    }));
    rig.list('GET', '/projects/:project/merge_requests/:iid/diffs', [
      gl.diff('src/app.ts', { diff: appDiff }),
      gl.diff('src/added.ts', { new_file: true, diff: '@@ -0,0 +1 @@\n+x\n' }),
    ]);
    rig.fake.route('POST', '/projects/:project/merge_requests/:iid/discussions', (request) => {
      const form = request.body as Record<string, string>;
      const position = form['position[new_path]']
        ? {
            new_path: form['position[new_path]'],
            new_line: form['position[new_line]'] ? Number(form['position[new_line]']) : null,
            old_line: form['position[old_line]'] ? Number(form['position[old_line]']) : null,
          }
        : undefined;
      return {
        status: 201,
        body: gl.discussion('abc', [
          gl.note(900, {
            noteable_type: 'MergeRequest',
            body: form.body ?? '',
            ...(position ? { position } : {}),
          }),
        ]),
      };
    });
  });

  const sentPositions = () =>
    rig.fake.sent('POST', `${MR}/discussions`).map((r) => r.body as Record<string, string>);
  const shas = {
    'position[position_type]': 'text',
    'position[base_sha]': 'b'.repeat(40),
    'position[start_sha]': 'c'.repeat(40),
    'position[head_sha]': 'a'.repeat(40),
    'position[old_path]': 'src/app.ts',
    'position[new_path]': 'src/app.ts',
  };

  it('comments on an added line with new_line only, from the diff_refs of the merge request', async () => {
    const result = await rig.call('create_merge_request_comment', {
      key: '!11',
      body: 'Why 3?',
      file_path: 'src/app.ts',
      line: 4,
    });
    expect(result.isError).toBeFalsy();
    expect(sentPositions()).toEqual([{ body: 'Why 3?', ...shas, 'position[new_line]': '4' }]);
    expect(text(result)).toBe(
      'Commented on src/app.ts:4 in !11\nhttps://gitlab.example.com/group/sub/project/-/merge_requests/11#note_900',
    );
    expect(structured(result)).toMatchObject({ items: [{ id: '900', path: 'src/app.ts', line: 4 }] });
  });

  it('comments on a removed line with line_type "old": old_line only', async () => {
    await rig.call('create_merge_request_comment', {
      key: '!11',
      body: 'Keep this',
      file_path: 'src/app.ts',
      line: 3,
      line_type: 'old',
    });
    expect(sentPositions()).toEqual([{ body: 'Keep this', ...shas, 'position[old_line]': '3' }]);
  });

  it('gives both line numbers for a kept line, inside a hunk and beyond the hunks', async () => {
    await rig.call('create_merge_request_comment', {
      key: '!11',
      body: 'a',
      file_path: 'src/app.ts',
      line: 6,
    });
    await rig.call('create_merge_request_comment', {
      key: '!11',
      body: 'b',
      file_path: 'src/app.ts',
      line: 43,
    });
    await rig.call('create_merge_request_comment', {
      key: '!11',
      body: 'c',
      file_path: 'src/app.ts',
      line: 100,
    });
    await rig.call('create_merge_request_comment', {
      key: '!11',
      body: 'd',
      file_path: 'src/app.ts',
      line: 20,
      line_type: 'old',
    });
    expect(sentPositions().map((f) => [f['position[old_line]'], f['position[new_line]']])).toEqual([
      ['5', '6'],
      ['41', '43'],
      ['98', '100'],
      ['20', '21'],
    ]);
  });

  it('comments on the merge request as a whole without a file', async () => {
    rig.fake.route('POST', '/projects/:project/merge_requests/:iid/notes', (request) => ({
      status: 201,
      body: gl.note(77, { noteable_type: 'MergeRequest', body: (request.body as { body: string }).body }),
    }));
    const result = await rig.call('create_merge_request_comment', { key: '!11', body: 'LGTM' });
    expect(rig.fake.sent('POST', `${MR}/notes`)[0]?.body).toEqual({ body: 'LGTM' });
    expect(text(result)).toMatch(/^Commented on !11/);
  });

  it('refuses a file the merge request does not change, old lines of an added file, and a half position', async () => {
    const missing = await rig.call('create_merge_request_comment', {
      key: '!11',
      body: 'x',
      file_path: 'src/none.ts',
      line: 1,
    });
    expect(text(missing)).toContain('not a file changed by !11');
    const added = await rig.call('create_merge_request_comment', {
      key: '!11',
      body: 'x',
      file_path: 'src/added.ts',
      line: 1,
      line_type: 'old',
    });
    expect(text(added)).toContain('src/added.ts was added');
    const half = await rig.call('create_merge_request_comment', { key: '!11', body: 'x', line: 3 });
    expect(text(half)).toContain('both "file_path" and "line"');
    for (const result of [missing, added, half]) expect(result.isError).toBe(true);
    expect(sentPositions()).toHaveLength(0);
  });

  it('does not let the agent set the provider-only line_field itself', async () => {
    const { tools } = await rig.client.listTools();
    const tool = tools.find((t) => t.name === 'gitlab__create_merge_request_comment');
    expect(Object.keys(tool?.inputSchema.properties ?? {})).not.toContain('line_field');
    expect(tool?.inputSchema.properties?.line_type).toMatchObject({ enum: ['new', 'old'] });
  });
});
