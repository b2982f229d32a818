// get_merge_request_diffs on GitHub end to end: pages of changed files, GitHub's statuses in the shared words,
// each file's diff capped and marked, the whole answer bounded, and the notice that says how to get the rest.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_DIFF_CHARS_PER_CALL, MAX_FILE_DIFF_CHARS } from '../src/plugins/github/diff-shape.js';
import { gh } from './support/fake-github.js';
import { type GitHubHost, startGitHubHost } from './support/github-plugin-host.js';
import { pagedReply } from './support/github-review-fixture.js';

const PULL = '/repos/octo-org/octo-repo/pulls/12';
let host: GitHubHost;

beforeEach(async () => {
  host = await startGitHubHost();
});
afterEach(() => host.close());

function serveFiles(files: Record<string, unknown>[]) {
  host.fake.route('GET', PULL, { status: 200, body: gh.pull(12, { changed_files: files.length }) });
  host.fake.route('GET', `${PULL}/files`, (request) => pagedReply(host.fake, request, files));
}

describe('get_merge_request_diffs', () => {
  it('maps each changed file, with GitHub’s statuses in the shared words', async () => {
    serveFiles([
      gh.pullFile('src/new.ts', { status: 'added', additions: 1, patch: '@@ -0,0 +1 @@\n+export {};' }),
      gh.pullFile('src/gone.ts', { status: 'removed', deletions: 1, patch: '@@ -1 +0,0 @@\n-export {};' }),
      gh.pullFile('src/moved.ts', { status: 'renamed', previous_filename: 'src/old.ts' }),
      gh.pullFile('logo.png', { status: 'modified' }),
      gh.pullFile('huge.json', { status: 'modified', additions: 90_000 }),
    ]);
    const result = await host.call('get_merge_request_diffs', { key: '#12' });
    expect(result.structuredContent).toEqual({
      kind: 'diff_list',
      items: [
        {
          path: 'src/new.ts',
          status: 'added',
          additions: 1,
          deletions: 0,
          diff: '@@ -0,0 +1 @@\n+export {};',
        },
        {
          path: 'src/gone.ts',
          status: 'deleted',
          additions: 0,
          deletions: 1,
          diff: '@@ -1 +0,0 @@\n-export {};',
        },
        { path: 'src/moved.ts', oldPath: 'src/old.ts', status: 'renamed', additions: 0, deletions: 0 },
        { path: 'logo.png', status: 'modified', additions: 0, deletions: 0 },
        // GitHub leaves out the patch of a diff too large to show.
        { path: 'huge.json', status: 'modified', additions: 90_000, deletions: 0, truncated: true },
      ],
      page: { offset: 0, limit: 20, total: 5 },
    });
    expect(host.calls().map((r) => [r.path, r.query])).toEqual(
      expect.arrayContaining([
        [PULL, {}],
        [`${PULL}/files`, { per_page: '20', page: '1' }],
      ]),
    );
    const text = (result.content[0] as { text: string }).text;
    expect(text).toContain('src/old.ts → src/moved.ts');
    expect(text).toContain('```diff\n@@ -0,0 +1 @@\n+export {};\n```');
  });

  it('pages through files over more than one GitHub page and says how to get the rest', async () => {
    serveFiles(
      Array.from({ length: 7 }, (_, i) =>
        gh.pullFile(`f${i}.ts`, { additions: 1, patch: `@@ -0,0 +1 @@\n+${i}` }),
      ),
    );
    const first = await host.call('get_merge_request_diffs', { key: '#12', limit: 3 });
    expect((first.structuredContent as { items: { path: string }[] }).items.map((f) => f.path)).toEqual([
      'f0.ts',
      'f1.ts',
      'f2.ts',
    ]);
    expect(first.structuredContent).toMatchObject({ page: { offset: 0, limit: 3, total: 7 } });
    expect((first.content[0] as { text: string }).text).toContain(
      'Showing 3 of 7 changed files; call again with offset=3 for the next ones.',
    );

    const later = await host.call('get_merge_request_diffs', { key: '#12', limit: 3, offset: 5 });
    expect((later.structuredContent as { items: { path: string }[] }).items.map((f) => f.path)).toEqual([
      'f5.ts',
      'f6.ts',
    ]);
    expect(
      host
        .calls()
        .filter((r) => r.path.endsWith('/files'))
        .map((r) => r.query.page),
    ).toEqual(['1', '2', '3']);
  });

  it('cuts a long diff at a line end and marks it, and keeps the whole answer bounded', async () => {
    const line = `+${'x'.repeat(99)}\n`;
    const long = `@@ -0,0 +1,400 @@\n${line.repeat(400)}`;
    serveFiles(
      Array.from({ length: 8 }, (_, i) => gh.pullFile(`big${i}.ts`, { additions: 400, patch: long })),
    );

    const result = await host.call('get_merge_request_diffs', { key: '#12', format: 'json' });
    const items = (result.structuredContent as { items: { diff: string; truncated?: boolean }[] }).items;
    expect(items[0]?.truncated).toBe(true);
    expect(items[0]?.diff.length).toBeLessThanOrEqual(MAX_FILE_DIFF_CHARS);
    expect(items[0]?.diff.endsWith('x')).toBe(true);
    // Five files of about 20 KB fill the answer; the rest wait for the next call.
    expect(items.length).toBe(Math.floor(MAX_DIFF_CHARS_PER_CALL / items[0]!.diff.length));
    expect(result.structuredContent).toMatchObject({ page: { offset: 0, total: 8 } });
    expect((result.content[0] as { text: string }).text).toMatch(/call again with offset=\d/);
  });

  it('404 names the pull request and the repository', async () => {
    expect(await host.error('get_merge_request_diffs', { key: '#404' })).toBe(
      'pull request #404 of octo-org/octo-repo was not found on GitHub',
    );
  });
});
