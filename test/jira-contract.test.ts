// The jira plugin against the provider contract, on the loopback Jira: Cloud (v3, basic auth) and Server (v2, bearer).
import { afterAll, beforeAll, describe, expect, vi } from 'vitest';
import jiraPlugin from '../src/plugins/jira/index.js';
import { type FakeJira, type Flavor, apiOf, jira, startFakeJira } from './support/fake-jira.js';
import { PROJ, routeMetadata } from './support/fake-jira-metadata.js';
import { connect } from './support/in-memory.js';
import { runProviderContract } from './support/provider-contract.js';

const TOKEN = 'ATATT-contract-0123456789';
const EMAIL = 'contract@example.com';

function routeTools(fake: FakeJira, flavor: Flavor): void {
  const api = apiOf(flavor);
  const ok = (status: number, body?: unknown) => ({ status, ...(body === undefined ? {} : { body }) });
  const found = [jira.issue(flavor, 'PROJ-2'), jira.issue(flavor, 'PROJ-1')];
  if (flavor === 'cloud') fake.route('GET', `${api}/search/jql`, ok(200, { issues: found, isLast: true }));
  else fake.route('GET', `${api}/search`, ok(200, { startAt: 0, maxResults: 20, total: 2, issues: found }));
  fake.route('GET', `${api}/issue/:key`, (_r, p) => ok(200, jira.issue(flavor, p.key ?? '')));
  fake.route('PUT', `${api}/issue/:key`, ok(204));
  fake.route('POST', `${api}/issue`, ok(201, { id: '10003', key: 'PROJ-3', self: '' }));
  fake.route(
    'GET',
    `${api}/issue/:key/comment`,
    ok(200, { startAt: 0, maxResults: 20, total: 1, comments: [jira.comment(flavor, '1', 'Hi')] }),
  );
  fake.route('POST', `${api}/issue/:key/comment`, ok(201, jira.comment(flavor, '2', 'Hi')));
  fake.route(
    'GET',
    `${api}/issue/:key/transitions`,
    ok(200, { transitions: [jira.transition('31', 'Close', jira.status('Done', 'done'))] }),
  );
  fake.route('POST', `${api}/issue/:key/transitions`, ok(204));
  fake.route('POST', `${api}/issueLink`, ok(201));
  fake.route('GET', `${api}/user/search`, ok(200, [jira.user(flavor, 'acc-1', 'Mia Krystof')]));
  fake.route(
    'GET',
    '/rest/agile/1.0/board/7/sprint',
    ok(200, { maxResults: 50, startAt: 0, isLast: true, values: [jira.sprint(42, 'Sprint 4', 'active')] }),
  );
  fake.route('GET', '/rest/agile/1.0/sprint/42', ok(200, jira.sprint(42, 'Sprint 4', 'active')));
  fake.route('POST', '/rest/agile/1.0/sprint/42/issue', ok(204));
}

for (const flavor of ['cloud', 'server'] as const) {
  describe(`jira ${flavor}`, () => {
    let fake: FakeJira;

    beforeAll(async () => {
      process.env.JIRA_CONTRACT_TOKEN = TOKEN;
      process.env.JIRA_CONTRACT_EMAIL = EMAIL;
      fake = await startFakeJira();
      fake.expectAuth(
        'authorization',
        flavor === 'cloud'
          ? `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`
          : `Bearer ${TOKEN}`,
      );
      routeMetadata(fake, flavor, [PROJ]);
      routeTools(fake, flavor);
    });

    afterAll(async () => {
      await fake.close();
    });

    runProviderContract({
      kind: `jira (${flavor})`,
      prefix: 'jr',
      connect: async () => {
        const connected = await connect({
          plugins: [
            {
              plugin: jiraPlugin,
              name: 'jr',
              options: {
                base_url: fake.url,
                flavor,
                ...(flavor === 'cloud' ? { email_env: 'JIRA_CONTRACT_EMAIL' } : {}),
                token_env: 'JIRA_CONTRACT_TOKEN',
                projects: ['PROJ'],
                board: 7,
                retries: 0,
              },
            },
          ],
        });
        // The background metadata load must be over before a check counts requests.
        await vi.waitFor(
          async () => {
            const { tools } = await connected.client.listTools();
            const create = tools.find((t) => t.name === 'jr__create_issue');
            expect(create?.inputSchema.properties?.cf_severity).toBeDefined();
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
        get_issue: { key: 'PROJ-1' },
        get_issue_comments: { key: 'PROJ-1' },
        create_issue: { title: 'New', cf_severity: 'High' },
        update_issue: { key: 'PROJ-1', state: 'closed' },
        add_issue_comment: { key: 'PROJ-1', body: 'Hi' },
        link_issues: { key: 'PROJ-1', target_key: 'PROJ-2', link_type: 'blocks' },
        get_available_statuses: { key: 'PROJ-1' },
        get_custom_fields: {},
        get_users: { search: 'mia' },
        get_board_sprints: {},
        assign_to_sprint: { sprint: 42, keys: ['PROJ-1'] },
      },
      requestCount: () => fake.requests.length,
    });
  });
}
