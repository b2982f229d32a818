// The github plugin against the provider contract, on the loopback GitHub.
import { afterAll, beforeAll } from 'vitest';
import github from '../src/plugins/github/index.js';
import { connect } from './support/in-memory.js';
import { type FakeGitHub, gh, startFakeGitHub } from './support/fake-github.js';
import { routeCodeReview } from './support/github-review-fixture.js';
import { runProviderContract } from './support/provider-contract.js';

const TOKEN = 'ghp_contract_0123456789';
const REPO = '/repos/octo-org/octo-repo';
let fake: FakeGitHub;

beforeAll(async () => {
  process.env.GH_CONTRACT_TOKEN = TOKEN;
  fake = await startFakeGitHub();
  fake.expectToken(`token ${TOKEN}`);
  fake.route('GET', `${REPO}/labels`, { status: 200, body: [gh.label('bug')] });
  fake.route('GET', `${REPO}/milestones`, { status: 200, body: [gh.milestone(1, 'v1')] });
  fake.route('GET', `${REPO}/issues`, { status: 200, body: [gh.issue(3), gh.issue(2), gh.issue(1)] });
  fake.route('POST', `${REPO}/issues`, { status: 201, body: gh.issue(4) });
  fake.route('GET', `${REPO}/issues/:n`, (_r, params) => ({ status: 200, body: gh.issue(Number(params.n)) }));
  fake.route('PATCH', `${REPO}/issues/:n`, (_r, params) => ({
    status: 200,
    body: gh.issue(Number(params.n)),
  }));
  fake.route('GET', `${REPO}/issues/:n/comments`, { status: 200, body: [gh.comment(1)] });
  fake.route('POST', `${REPO}/issues/:n/comments`, { status: 201, body: gh.comment(2) });
  fake.route('GET', `${REPO}/issues/:n/parent`, gh.error(404, 'Not Found'));
  fake.route('GET', `${REPO}/issues/:n/sub_issues`, { status: 200, body: [gh.issue(2)] });
  fake.route('POST', `${REPO}/issues/:n/sub_issues`, (_r, params) => ({
    status: 201,
    body: gh.issue(Number(params.n)),
  }));
  routeCodeReview(fake);
});

afterAll(async () => {
  await fake.close();
});

runProviderContract({
  kind: 'github',
  prefix: 'gh',
  connect: () =>
    connect({
      plugins: [
        {
          plugin: github,
          name: 'gh',
          options: {
            repo: 'octo-org/octo-repo',
            base_url: fake.url,
            token_env: 'GH_CONTRACT_TOKEN',
            retries: 0,
            throttle: false,
            sub_issues: true,
          },
        },
      ],
    }),
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
    link_issues: { key: '#1', target_key: '#2' },
    get_merge_requests: {},
    get_merge_request: { key: '#12' },
    get_merge_request_discussions: { key: '#12' },
    get_merge_request_diffs: { key: '#12' },
    create_merge_request: { title: 'New', source_branch: 'feature', target_branch: 'main' },
    update_merge_request: { key: '#12', title: 'Renamed' },
    create_merge_request_comment: { key: '#12', body: 'Why?', file_path: 'src/sides.ts', line: 1 },
    get_pipeline: { key: '#12' },
    get_job_logs: { job_id: '501', pattern: 'error' },
  },
  textResults: ['get_job_logs'],
  requestCount: () => fake.requests.length,
});
