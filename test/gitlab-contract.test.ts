// The gitlab plugin against the provider contract, on the loopback GitLab.
import { afterAll, beforeAll, expect, vi } from 'vitest';
import gitlab from '../src/plugins/gitlab/index.js';
import { DEFAULT_PROJECT, gl } from './support/fake-gitlab-bodies.js';
import { type FakeGitLab, paged, startFakeGitLab } from './support/fake-gitlab.js';
import { connect } from './support/in-memory.js';
import { runProviderContract } from './support/provider-contract.js';

const TOKEN = 'glpat-contract-0123456789';
let fake: FakeGitLab;

beforeAll(async () => {
  process.env.GL_CONTRACT_TOKEN = TOKEN;
  fake = await startFakeGitLab();
  fake.expectAuth('private-token', TOKEN);
  const list = (pattern: string, items: unknown[]) =>
    fake.route('GET', pattern, (request) => paged(items, request, fake.url));
  const ok = (status: number, body: unknown) => ({ status, body });
  fake.route('GET', '/projects/:project', ok(200, gl.project()));
  list('/projects/:project/labels', [gl.label('bug')]);
  list('/projects/:project/milestones', [gl.milestone(11, 'v1.0')]);
  list('/projects/:project/issues', [gl.issue(3), gl.issue(2), gl.issue(1)]);
  fake.route('POST', '/projects/:project/issues', ok(201, gl.issue(4)));
  fake.route('GET', '/projects/:project/issues/:iid', (_r, p) => ok(200, gl.issue(Number(p.iid))));
  fake.route('PUT', '/projects/:project/issues/:iid', (_r, p) => ok(200, gl.issue(Number(p.iid))));
  list('/projects/:project/issues/:iid/notes', [gl.note(1)]);
  fake.route('POST', '/projects/:project/issues/:iid/notes', ok(201, gl.note(2)));
  fake.route('POST', '/projects/:project/issues/:iid/links', (_r, p) =>
    ok(201, { source_issue: gl.issue(Number(p.iid)), target_issue: gl.issue(2), link_type: 'blocks' }),
  );
  list('/projects/:project/merge_requests', [gl.mergeRequest(12), gl.mergeRequest(11)]);
  fake.route('POST', '/projects/:project/merge_requests', ok(201, gl.mergeRequest(13)));
  fake.route('GET', '/projects/:project/merge_requests/:iid', (_r, p) =>
    ok(200, gl.mergeRequest(Number(p.iid))),
  );
  fake.route('PUT', '/projects/:project/merge_requests/:iid', (_r, p) =>
    ok(200, gl.mergeRequest(Number(p.iid))),
  );
  list('/projects/:project/merge_requests/:iid/discussions', [
    gl.discussion('d1', [gl.note(5, { noteable_type: 'MergeRequest' })]),
  ]);
  list('/projects/:project/merge_requests/:iid/diffs', [gl.diff('src/app.ts')]);
  fake.route(
    'POST',
    '/projects/:project/merge_requests/:iid/discussions',
    ok(201, gl.discussion('d2', [gl.note(6, { noteable_type: 'MergeRequest' })])),
  );
  list('/projects/:project/merge_requests/:iid/pipelines', [gl.pipeline(48, { status: 'failed' })]);
  list('/projects/:project/pipelines/:id/jobs', [
    gl.job(501, 'rspec', 'failed'),
    gl.job(502, 'lint', 'success'),
  ]);
  fake.route('GET', '/projects/:project/jobs/:id/trace', ok(200, 'step 1\nerror: boom\n'));
});

afterAll(async () => {
  await fake.close();
});

runProviderContract({
  kind: 'gitlab',
  prefix: 'gl',
  connect: async () => {
    const connected = await connect({
      plugins: [
        {
          plugin: gitlab,
          name: 'gl',
          options: {
            project: DEFAULT_PROJECT,
            base_url: fake.url,
            token_env: 'GL_CONTRACT_TOKEN',
            retries: 0,
          },
        },
      ],
    });
    // The background metadata load must be over before a check counts requests.
    await vi.waitFor(
      async () => {
        const { tools } = await connected.client.listTools();
        const labels = tools.find((t) => t.name === 'gl__create_issue')?.inputSchema.properties?.labels;
        expect(labels).toMatchObject({ items: { enum: ['bug'] } });
      },
      { timeout: 5000, interval: 10 },
    );
    return connected;
  },
  get apiHost() {
    return new URL(fake.url).host;
  },
  token: TOKEN,
  samples: {
    get_issues: {},
    get_issue: { key: '#1' },
    get_issue_comments: { key: '#1' },
    create_issue: { title: 'New' },
    update_issue: { key: '#1', state: 'closed' },
    add_issue_comment: { key: '#1', body: 'Hi' },
    link_issues: { key: '#1', target_key: '#2', link_type: 'blocks' },
    get_merge_requests: {},
    get_merge_request: { key: '!12' },
    get_merge_request_discussions: { key: '!12' },
    get_merge_request_diffs: { key: '!12' },
    create_merge_request: { title: 'New', source_branch: 'feature', target_branch: 'main' },
    update_merge_request: { key: '!12', title: 'Renamed' },
    create_merge_request_comment: { key: '!12', body: 'Why?', file_path: 'src/app.ts', line: 1 },
    get_pipeline: { key: '!12' },
    get_job_logs: { job_id: '501', pattern: 'error' },
  },
  textResults: ['get_job_logs'],
  requestCount: () => fake.requests.length,
});
