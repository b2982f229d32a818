// Every follow-up link a plugin's value models declare, run on a real result: the projected arguments must
// pass the follow-up tool's enriched schema (the same check a call makes), so the planner's guesses are calls.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishedToolEntry } from '../src/host/index.js';
import type { ToolValueModel } from '../src/index.js';
import { projectFollowUp } from '../src/planner/index.js';
import github from '../src/plugins/github/index.js';
import workspace from '../src/plugins/workspace/index.js';
import { type Connected, connect } from './support/in-memory.js';
import { type FakeGitHub, gh, startFakeGitHub } from './support/fake-github.js';
import { routeCodeReview } from './support/github-review-fixture.js';

const REPO = '/repos/octo-org/octo-repo';
let fake: FakeGitHub;
let root: string;
let connected: Connected;

/** A call of each tool whose value model has follow-ups; the fake and the temp tree can answer them. */
const SAMPLE_CALLS: Record<string, Record<string, unknown>> = {
  gh__get_issues: {},
  gh__get_issue: { key: '#9' },
  gh__get_merge_requests: {},
  gh__get_merge_request: { key: '#12' },
  gh__get_pipeline: { key: '#12' },
  workspace__glob: { pattern: '**/*.md' },
  workspace__grep: { pattern: 'TODO' },
  workspace__read_file: { path: 'src/a.ts' },
};

beforeAll(async () => {
  process.env.GH_PROJECTIONS_TOKEN = 'ghp_projection_test';
  fake = await startFakeGitHub();
  fake.route('GET', `${REPO}/labels`, { status: 200, body: [] });
  fake.route('GET', `${REPO}/milestones`, { status: 200, body: [] });
  fake.route('GET', `${REPO}/issues`, {
    status: 200,
    body: [gh.issue(9), gh.issue(8), gh.issue(7), gh.issue(6)],
  });
  fake.route('GET', `${REPO}/issues/:n`, (_request, params) => ({
    status: 200,
    body: gh.issue(Number(params.n)),
  }));
  fake.route('GET', `${REPO}/issues/:n/comments`, { status: 200, body: [gh.comment(1)] });
  routeCodeReview(fake);
  root = await mkdtemp(join(tmpdir(), 'foresight-projections-'));
  await mkdir(join(root, 'docs'));
  await writeFile(join(root, 'README.md'), '# TODO: write\n');
  await writeFile(join(root, 'docs', 'guide.md'), 'TODO later\n');
  await mkdir(join(root, 'src'));
  await writeFile(
    join(root, 'src', 'a.ts'),
    "import { b } from './b.js';\nimport z from 'zod';\nexport const a = b;\n",
  );
  await writeFile(join(root, 'src', 'b.ts'), 'export const b = 1;\n');
  connected = await connect({
    plugins: [
      {
        plugin: github,
        name: 'gh',
        options: {
          repo: 'octo-org/octo-repo',
          base_url: fake.url,
          token_env: 'GH_PROJECTIONS_TOKEN',
          retries: 0,
          throttle: false,
        },
      },
      { plugin: workspace, options: { root } },
    ],
  });
});

afterAll(async () => {
  await connected.close();
  await fake.close();
  await rm(root, { recursive: true, force: true });
});

function modelsWithFollowUps(): { tool: string; model: ToolValueModel; entry: PublishedToolEntry }[] {
  return connected.host.plugins.publishedTools().flatMap((entry) => {
    const model = entry.enrichers.map((enricher) => enricher.valueModel?.(entry.ref)).find(Boolean);
    return model?.followUp.length ? [{ tool: entry.ref.published, model, entry }] : [];
  });
}

describe('follow-up projections produce valid calls', () => {
  it('has a sample call for every tool with follow-ups', () => {
    expect(
      modelsWithFollowUps()
        .map((m) => m.tool)
        .sort(),
    ).toEqual(Object.keys(SAMPLE_CALLS).sort());
  });

  it('projects arguments from a real result that the follow-up tool accepts, and answers', async () => {
    let checked = 0;
    for (const { tool, model, entry } of modelsWithFollowUps()) {
      const args = SAMPLE_CALLS[tool] ?? {};
      const result = await connected.client.callTool({ name: tool, arguments: args });
      expect(result.isError, `${tool}: ${JSON.stringify(result.content)}`).toBeFalsy();
      for (const link of model.followUp) {
        // A link without a projection path is the enricher's to project (read_file → the files it imports).
        const sets =
          link.projection === undefined
            ? (entry.enrichers[0]?.projectArgs?.(entry.ref, result, link, args) ?? [])
            : projectFollowUp(result, link);
        expect(sets.length, `${tool} → ${link.tool} via ${link.projection}`).toBeGreaterThan(0);
        for (const args of sets) {
          // The same mapping and validation a call goes through, without running the tool.
          expect(
            () => connected.host.tools.prepare(link.tool, args),
            `${link.tool} ${JSON.stringify(args)}`,
          ).not.toThrow();
          const followed = await connected.client.callTool({ name: link.tool, arguments: args });
          expect(followed.isError, `${link.tool} ${JSON.stringify(args)}`).toBeFalsy();
          checked++;
        }
      }
    }
    // get_issues → 2 links × 3 keys, get_issue → 1, glob → 2 paths, grep → 2 paths; get_merge_requests →
    // 2 links × 3 keys, get_merge_request → 3 links, get_pipeline → 3 jobs; read_file → its one local import.
    expect(checked).toBe(24);
  });
});
