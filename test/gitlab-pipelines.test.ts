// The gitlab plugin's CI tools: the latest pipeline with failed jobs first, and job logs searched, paged and capped.
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ToolEnricher } from '../src/contract/index.js';
import gitlab from '../src/plugins/gitlab/index.js';
import { gl } from './support/fake-gitlab-bodies.js';
import {
  type GitLabRig,
  PROJECT_PATH,
  startGitLabRig,
  structured,
  text,
} from './support/fake-gitlab-harness.js';
import { pluginContext } from './support/workspace-tree.js';

let rig: GitLabRig;
beforeEach(async () => {
  rig = await startGitLabRig({ metadata: { defaultBranch: 'develop' } });
});
afterEach(async () => rig.close());

const jobs = [
  gl.job(7, 'rspec', 'success', { stage: 'test' }),
  gl.job(6, 'lint', 'failed', { stage: 'test' }),
  gl.job(5, 'build', 'success', { stage: 'build' }),
  gl.job(8, 'deploy', 'failed', { stage: 'deploy' }),
  gl.job(9, 'notify', 'skipped', { stage: 'deploy' }),
];

describe('gitlab get_pipeline', () => {
  beforeEach(() => {
    rig.list('GET', '/projects/:project/pipelines/:id/jobs', jobs);
  });

  it('reads the newest pipeline of a branch with its jobs, failed ones first', async () => {
    rig.list('GET', '/projects/:project/pipelines', [gl.pipeline(48, { status: 'failed', ref: 'login' })]);
    const result = await rig.call('get_pipeline', { branch: 'login' });
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/pipelines`)[0]?.query).toEqual({
      ref: 'login',
      order_by: 'id',
      sort: 'desc',
      page: '1',
      per_page: '1',
    });
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/pipelines/48/jobs`)[0]?.query).toEqual({
      per_page: '100',
      page: '1',
    });
    const data = structured(result) as { kind: string; item: { jobs: { id: string; status: string }[] } };
    expect(data).toMatchObject({
      kind: 'pipeline',
      item: {
        id: '48',
        status: 'failed',
        ref: 'login',
        sha: 'a'.repeat(40),
        url: 'https://gitlab.example.com/group/sub/project/-/pipelines/48',
        createdAt: '2024-01-04T15:31:46.176Z',
      },
    });
    expect(data.item.jobs.map((j) => [j.id, j.status])).toEqual([
      ['6', 'failed'],
      ['8', 'failed'],
      ['5', 'success'],
      ['7', 'success'],
      ['9', 'skipped'],
    ]);
    expect(data.item.jobs[0]).toEqual({
      id: '6',
      name: 'lint',
      status: 'failed',
      stage: 'test',
      url: 'https://gitlab.example.com/group/sub/project/-/jobs/6',
      durationS: 13,
    });
  });

  it("uses the project's default branch when none is given", async () => {
    rig.list('GET', '/projects/:project/pipelines', [gl.pipeline(50, { ref: 'develop' })]);
    await rig.metadataLoaded();
    await rig.call('get_pipeline', {});
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/pipelines`)[0]?.query.ref).toBe('develop');
  });

  it('reads the newest pipeline of a merge request', async () => {
    rig.list('GET', '/projects/:project/merge_requests/:iid/pipelines', [
      gl.pipeline(77, { status: 'failed', ref: 'refs/merge-requests/11/head' }),
      gl.pipeline(70),
    ]);
    const result = await rig.call('get_pipeline', { key: '!11' });
    expect(structured(result)).toMatchObject({ item: { id: '77', ref: 'refs/merge-requests/11/head' } });
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/merge_requests/11/pipelines`)[0]?.query).toEqual({
      page: '1',
      per_page: '1',
    });
  });

  it('says so when nothing has run, and refuses a branch and a key together', async () => {
    rig.list('GET', '/projects/:project/pipelines', []);
    const none = await rig.call('get_pipeline', { branch: 'ghost' });
    expect(none.isError).toBe(true);
    expect(text(none)).toContain('no pipeline has run for branch "ghost" of group/sub/project');
    const both = await rig.call('get_pipeline', { branch: 'x', key: '!1' });
    expect(text(both)).toContain('not both');
  });
});

describe('gitlab get_job_logs', () => {
  const ESC = '\u001b';
  const log = [
    `section_start:1700000000:prepare_script\r${ESC}[0K${ESC}[36;1mPreparing environment${ESC}[0;m`,
    'Downloading 10%\rDownloading 55%\rDownloading 100%',
    ...Array.from({ length: 300 }, (_, i) => `step ${i + 1}`),
    `${ESC}[31;1mError: expected 2 to equal 3${ESC}[0;m`,
    '    at spec/app_spec.rb:12',
    ...Array.from({ length: 20 }, (_, i) => `cleanup ${i + 1}`),
    `section_end:1700000100:step_script\r${ESC}[0K${ESC}[31;1mERROR: Job failed: exit code 1${ESC}[0;m`,
    '',
  ].join('\n');

  beforeEach(() => {
    rig.fake.route('GET', '/projects/:project/jobs/:id/trace', { status: 200, body: log });
  });

  it('finds the lines matching a pattern with context, cleaned of terminal codes', async () => {
    const result = await rig.call('get_job_logs', { job_id: '6', pattern: 'error', context_lines: 1 });
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/jobs/6/trace`)).toHaveLength(1);
    expect(text(result)).toBe(
      [
        'Log of job 6, 325 lines; 2 lines match /error/i, shown with 1 line of context.',
        '',
        '302- step 300',
        '303: Error: expected 2 to equal 3',
        '304-     at spec/app_spec.rb:12',
        '--',
        '324- cleanup 20',
        '325: ERROR: Job failed: exit code 1',
      ].join('\n'),
    );
    expect(result.structuredContent).toBeUndefined();
  });

  it('without an offset shows the last lines, and pages with offset; a capital letter makes the pattern exact', async () => {
    const tail = text(await rig.call('get_job_logs', { job_id: '6', limit: 3 }));
    expect(tail).toBe(
      [
        'Log of job 6, lines 323–325 of 325 (the end). Lines 1–322 are not shown; call again with offset=0, or with a pattern, for them.',
        '',
        '323: cleanup 19',
        '324: cleanup 20',
        '325: ERROR: Job failed: exit code 1',
      ].join('\n'),
    );
    const head = text(await rig.call('get_job_logs', { job_id: '6', offset: 0, limit: 2 }));
    expect(head).toBe(
      [
        'Log of job 6, lines 1–2 of 325. Call again with offset=2 for the next lines; the last 2 lines start at offset=323.',
        '',
        '1: Preparing environment',
        '2: Downloading 100%',
      ].join('\n'),
    );
    const exact = text(await rig.call('get_job_logs', { job_id: '6', pattern: 'ERROR', context_lines: 0 }));
    expect(exact.split('\n')[0]).toBe(
      'Log of job 6, 325 lines; 1 line match /ERROR/, shown with 0 lines of context.',
    );
  });

  it('stops at `limit` lines, keeping a window whole, and says where the next matches start', async () => {
    const result = text(
      await rig.call('get_job_logs', { job_id: '6', pattern: '^step 1', context_lines: 0, limit: 5 }),
    );
    expect(result).toBe(
      [
        'Log of job 6, 325 lines; 111 lines match /^step 1/i. Showing the first 5 with 0 lines of context; call again with offset=15 to search on from line 16.',
        '',
        '3: step 1',
        '--',
        '12: step 10',
        '13: step 11',
        '14: step 12',
        '15: step 13',
      ].join('\n'),
    );
  });

  it('reads only the tail of a log over max_log_kb, and says so', async () => {
    await rig.close();
    rig = await startGitLabRig({ options: { max_log_kb: 1 } });
    const big = `${Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join('\n')}\nFAILED here\n`;
    rig.fake.route('GET', '/projects/:project/jobs/:id/trace', { status: 200, body: big });
    const result = text(await rig.call('get_job_logs', { job_id: '9', pattern: 'FAILED' }));
    expect(result).toMatch(/its first \d+ KB were not read/);
    expect(result).toContain('102: FAILED here');
    expect(result.length).toBeLessThan(4000);
  });

  it('refuses a job id that is not a number and a pattern that is not a regular expression', async () => {
    const id = await rig.call('get_job_logs', { job_id: 'lint' });
    expect(text(id)).toBe('parameter "job_id" is "lint"; a job id is a number, as get_pipeline lists it');
    const pattern = await rig.call('get_job_logs', { job_id: '6', pattern: '(' });
    expect(text(pattern)).toContain('not a valid regular expression');
    expect(rig.fake.sent('GET', `${PROJECT_PATH}/jobs/6/trace`)).toHaveLength(0);
  });
});

describe('gitlab get_pipeline → get_job_logs projection', () => {
  it("turns a real pipeline result into get_job_logs calls for the failed jobs, valid against that tool's schema", async () => {
    rig.list('GET', '/projects/:project/pipelines', [gl.pipeline(48, { status: 'failed' })]);
    rig.list('GET', '/projects/:project/pipelines/:id/jobs', jobs);
    const result = await rig.call('get_pipeline', { branch: 'main' });
    const provider = await gitlab.build(pluginContext({ project: 'group/sub/project' }));
    const [enricher] = provider.enrichers?.() as ToolEnricher[];
    const prev = { plugin: 'gitlab', name: 'get_pipeline', published: 'gitlab__get_pipeline' };
    const model = enricher?.valueModel?.(prev);
    const link = model?.followUp.find((l) => l.tool === 'gitlab__get_job_logs');
    expect(link).toBeDefined();
    const projected = enricher?.projectArgs?.(prev, result, link!);
    expect(projected).toEqual([{ job_id: '6' }, { job_id: '8' }]);
    const { tools } = await rig.client.listTools();
    const schema = tools.find((t) => t.name === 'gitlab__get_job_logs')?.inputSchema;
    const validate = new Ajv({ strict: false }).compile(schema ?? {});
    for (const args of projected ?? []) expect(validate(args), JSON.stringify(validate.errors)).toBe(true);
  });
});
