// End to end as a user runs it: the built CLI over stdio with a foresight.toml that mounts the jira plugin against a
// loopback Jira Cloud, email and token from the environment; the enriched list, a JQL read, a write with cf_
// parameters, a status change through a transition, and no secret on stderr.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ObservedStdioClientTransport,
  START_TIMEOUT_MS,
  newClient,
  textOf,
  withTimeout,
} from './support/cli.js';
import { type FakeJira, jira, startFakeJira } from './support/fake-jira.js';
import { PROJ, routeMetadata } from './support/fake-jira-metadata.js';

const TOKEN = 'ATATT-e2e-stdio-0123456789abcdef';
const EMAIL = 'e2e@example.com';
const API = '/rest/api/3';
let fake: FakeJira;
let dir: string;
let client: Client;
let transport: ObservedStdioClientTransport;

beforeAll(async () => {
  fake = await startFakeJira();
  fake.expectAuth('authorization', `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`);
  routeMetadata(fake, 'cloud', [PROJ]);
  fake.route('GET', `${API}/search/jql`, {
    status: 200,
    body: {
      issues: [
        jira.issue('cloud', 'PROJ-3', { summary: 'Кнопка не работает', labels: ['ui'] }),
        jira.issue('cloud', 'PROJ-2', { summary: 'Dark mode' }),
      ],
      isLast: true,
    },
  });
  fake.route('POST', `${API}/issue`, { status: 201, body: { id: '10004', key: 'PROJ-4', self: '' } });
  fake.route('GET', `${API}/issue/:key`, (_r, p) => ({
    status: 200,
    body: jira.issue('cloud', p.key ?? '', { summary: 'Crash on save' }),
  }));
  fake.route('GET', `${API}/issue/PROJ-4/transitions`, {
    status: 200,
    body: { transitions: [jira.transition('21', 'Start', jira.status('In Progress', 'indeterminate', 3))] },
  });
  fake.route('POST', `${API}/issue/PROJ-4/transitions`, { status: 204 });
  dir = await mkdtemp(join(tmpdir(), 'foresight-e2e-jira-'));
  await writeFile(
    join(dir, 'foresight.toml'),
    [
      '[plugins.jr]',
      'use = "jira"',
      `base_url = "${fake.url}"`,
      'flavor = "cloud"',
      'projects = ["PROJ"]',
      'email_env = "E2E_JIRA_EMAIL"',
      'token_env = "E2E_JIRA_TOKEN"',
      'retries = 0',
    ].join('\n'),
  );
  transport = new ObservedStdioClientTransport({
    cwd: dir,
    args: ['serve'],
    env: { E2E_JIRA_TOKEN: TOKEN, E2E_JIRA_EMAIL: EMAIL },
  });
  client = newClient();
  await withTimeout(client.connect(transport), START_TIMEOUT_MS, 'the stdio client to initialize');
});

afterAll(async () => {
  await client?.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

describe('foresight serve with the jira plugin, over stdio', () => {
  it('lists the Jira tools, fitted to PROJ once its metadata has loaded', async () => {
    await vi.waitFor(
      async () => {
        const create = (await client.listTools()).tools.find((t) => t.name === 'jr__create_issue');
        expect(create?.inputSchema.properties?.cf_severity).toMatchObject({
          enum: ['Critical', 'High', 'Medium', 'Low', null],
        });
      },
      { timeout: 10_000, interval: 50 },
    );
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['jr__get_issues', 'jr__get_board_sprints', 'jr__get_custom_fields']),
    );
  });

  it('reads issues with JQL and renders them', async () => {
    const result = await client.callTool({
      name: 'jr__get_issues',
      arguments: { query: 'labels = ui', format: 'markdown' },
    });
    expect(textOf(result)).toMatch(/^## Issues \(2\)/);
    expect(textOf(result)).toContain('Кнопка не работает');
    expect(fake.sent('GET', `${API}/search/jql`)[0]?.query.jql).toBe(
      '(labels = ui) AND project = "PROJ" ORDER BY created DESC',
    );
  });

  it('creates an issue with custom fields, then moves it along its workflow', async () => {
    const created = await client.callTool({
      name: 'jr__create_issue',
      arguments: { title: 'Crash on save', type: 'Bug', priority: 'high', cf_severity: 'Critical' },
    });
    expect(textOf(created)).toMatch(/^Created PROJ-4: Crash on save/);
    expect(fake.sent('POST', `${API}/issue`)[0]?.body).toEqual({
      fields: {
        project: { key: 'PROJ' },
        issuetype: { name: 'Bug' },
        summary: 'Crash on save',
        priority: { name: 'High' },
        customfield_10100: { id: '1' },
      },
    });
    const moved = await client.callTool({
      name: 'jr__update_issue',
      arguments: { key: 'PROJ-4', status: 'In Progress' },
    });
    expect(textOf(moved)).toMatch(/^Updated PROJ-4/);
    expect(fake.sent('POST', `${API}/issue/PROJ-4/transitions`)[0]?.body).toEqual({
      transition: { id: '21' },
    });
  });

  it('sent the credentials only as the authorization header, and never shows them', () => {
    expect(fake.requests.every((r) => r.headers.authorization?.startsWith('Basic '))).toBe(true);
    expect(transport.stderrSoFar()).not.toContain(TOKEN);
    expect(transport.stderrSoFar()).toMatch(/"msg":"1 plugin mounted \(jr\)/);
  });
});
