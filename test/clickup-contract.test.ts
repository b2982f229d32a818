// The clickup plugin against the provider contract, on the loopback ClickUp.
import { afterAll, beforeAll, expect, vi } from 'vitest';
import clickup from '../src/plugins/clickup/index.js';
import { LIST_ID, comment, task } from './support/fake-clickup-bodies.js';
import {
  API_PREFIX,
  expectAllMatched,
  routeHealthProbe,
  routeMetadata,
  startFakeClickUp,
} from './support/fake-clickup.js';
import type { FakeRest } from './support/fake-rest.js';
import { connect } from './support/in-memory.js';
import { runProviderContract } from './support/provider-contract.js';

const TOKEN = 'pk_271828_CONTRACTTOKEN0123456789';
let fake: FakeRest;

beforeAll(async () => {
  process.env.CU_CONTRACT_TOKEN = TOKEN;
  fake = await startFakeClickUp();
  fake.expectAuth('authorization', TOKEN);
  routeMetadata(fake, [{ id: LIST_ID, name: 'Backlog' }]);
  routeHealthProbe(fake);
  const ok = (body: unknown) => ({ status: 200, body });
  fake.route(
    'GET',
    `/list/${LIST_ID}/task`,
    ok({ tasks: [task('86c'), task('86b'), task('86a')], last_page: true }),
  );
  fake.route('POST', `/list/${LIST_ID}/task`, ok(task('86d')));
  fake.route('GET', '/task/:id', (_r, p) => ok(task(p.id ?? '')));
  fake.route('PUT', '/task/:id', (_r, p) => ok(task(p.id ?? '')));
  fake.route('GET', '/task/:id/comment', ok({ comments: [comment('1', 'Hi', 1_700_000_000_000)] }));
  fake.route('POST', '/task/:id/comment', ok({ id: 2, hist_id: '9', date: 1_700_000_000_001 }));
  fake.route('POST', '/task/:id/dependency', ok({}));
  fake.route('POST', '/task/:id/field/:field', ok({}));
});

afterAll(async () => {
  delete process.env.CU_CONTRACT_TOKEN;
  await fake.close();
  expectAllMatched(fake);
});

runProviderContract({
  kind: 'clickup',
  prefix: 'cu',
  connect: async () => {
    const connected = await connect({
      plugins: [
        {
          plugin: clickup,
          name: 'cu',
          options: {
            lists: [LIST_ID],
            base_url: `${fake.url}${API_PREFIX}`,
            token_env: 'CU_CONTRACT_TOKEN',
            retries: 0,
          },
        },
      ],
    });
    // The background metadata load must be over before a check counts requests.
    await vi.waitFor(
      async () => {
        const { tools } = await connected.client.listTools();
        const status = tools.find((t) => t.name === 'cu__create_issue')?.inputSchema.properties?.status;
        expect(status).toMatchObject({ enum: expect.any(Array) });
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
    get_issue: { key: '86a' },
    get_issue_comments: { key: '86a' },
    create_issue: { title: 'New', priority: 'high', cf_severity: 'High' },
    update_issue: { key: '86a', status: 'review' },
    add_issue_comment: { key: '86a', body: 'Hi' },
    link_issues: { key: '86a', target_key: '86b', link_type: 'blocking' },
    get_available_statuses: {},
    get_custom_fields: {},
    get_users: { search: 'ann' },
  },
  requestCount: () => fake.requests.length,
});
