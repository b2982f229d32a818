// End to end as a user runs it: the built CLI over stdio with a foresight.toml that mounts the clickup plugin
// against a loopback ClickUp, the token from the environment; list in a format, read, create with typed custom
// fields, and the token only ever in the Authorization header.
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
import { LIST_ID, task } from './support/fake-clickup-bodies.js';
import {
  API_PREFIX,
  expectAllMatched,
  routeHealthProbe,
  routeMetadata,
  startFakeClickUp,
} from './support/fake-clickup.js';
import type { FakeRest } from './support/fake-rest.js';

const TOKEN = 'pk_e2e_stdio_0123456789ABCDEF';
let fake: FakeRest;
let dir: string;
let client: Client;
let transport: ObservedStdioClientTransport;

beforeAll(async () => {
  fake = await startFakeClickUp();
  fake.expectAuth('authorization', TOKEN);
  routeMetadata(fake, [{ id: LIST_ID, name: 'Backlog' }]);
  routeHealthProbe(fake);
  fake.route('GET', `/list/${LIST_ID}/task`, {
    status: 200,
    body: {
      tasks: [task('86b', { name: 'Кнопка не работает' }), task('86a', { name: 'Dark mode' })],
      last_page: true,
    },
  });
  fake.route('GET', '/task/:id', (_r, p) => ({ status: 200, body: task(p.id ?? '') }));
  fake.route('POST', `/list/${LIST_ID}/task`, {
    status: 200,
    body: task('86new', { name: 'Crash on save' }),
  });
  dir = await mkdtemp(join(tmpdir(), 'foresight-e2e-clickup-'));
  await writeFile(
    join(dir, 'foresight.toml'),
    [
      '[plugins.cu]',
      'use = "clickup"',
      `lists = ["${LIST_ID}"]`,
      `base_url = "${fake.url}${API_PREFIX}"`,
      'token_env = "E2E_CLICKUP_TOKEN"',
      'retries = 0',
    ].join('\n'),
  );
  transport = new ObservedStdioClientTransport({
    cwd: dir,
    args: ['serve'],
    env: { E2E_CLICKUP_TOKEN: TOKEN },
  });
  client = newClient();
  await withTimeout(client.connect(transport), START_TIMEOUT_MS, 'the stdio client to initialize');
});

afterAll(async () => {
  await client?.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
  expectAllMatched(fake);
});

describe('foresight serve with the clickup plugin, over stdio', () => {
  it('lists the issue tools, fitted to the list once its metadata loads', async () => {
    await vi.waitFor(
      async () => {
        const create = (await client.listTools()).tools.find((t) => t.name === 'cu__create_issue');
        expect(create?.inputSchema.properties?.cf_severity).toMatchObject({
          enum: ['Critical', 'High', 'Medium', 'Low'],
        });
      },
      { timeout: 10_000, interval: 50 },
    );
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['cu__get_issues', 'cu__get_issue', 'cu__get_custom_fields', 'cu__get_users']),
    );
  });

  it('reads tasks as issues in a format', async () => {
    const markdown = textOf(
      await client.callTool({ name: 'cu__get_issues', arguments: { format: 'markdown' } }),
    );
    expect(markdown).toMatch(/^## Issues \(2\)/);
    expect(markdown).toContain('Кнопка не работает');
    const json = JSON.parse(
      textOf(await client.callTool({ name: 'cu__get_issues', arguments: { format: 'json' } })),
    ) as {
      items: { key: string }[];
    };
    expect(json.items.map((i) => i.key)).toEqual(['86b', '86a']);
  });

  it('creates a task with typed custom fields, and refuses a bad option', async () => {
    const created = await client.callTool({
      name: 'cu__create_issue',
      arguments: { title: 'Crash on save', priority: 'urgent', cf_severity: 'Critical', cf_approved: true },
    });
    expect(textOf(created)).toBe('Created 86new: Crash on save\nhttps://app.clickup.com/t/86new');
    expect(fake.sent('POST', `/list/${LIST_ID}/task`)[0]?.body).toEqual({
      name: 'Crash on save',
      priority: 1,
      custom_fields: [
        { id: 'f-sev', value: 'opt-crit' },
        { id: 'f-ok', value: true },
      ],
    });
    const bad = await client.callTool({
      name: 'cu__create_issue',
      arguments: { title: 'x', cf_severity: 'Hgh' },
    });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain(
      'parameter "cf_severity" is "Hgh"; allowed: "Critical", "High", "Medium", "Low"',
    );
  });

  it('sent the token only as the authorization header, and never shows it', () => {
    expect(fake.requests.every((r) => r.headers.authorization === TOKEN)).toBe(true);
    expect(transport.stderrSoFar()).not.toContain(TOKEN);
    expect(transport.stderrSoFar()).toMatch(/"msg":"1 plugin mounted \(cu\)/);
  });
});
