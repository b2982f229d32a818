// Test rig for the jira plugin: the fake Jira with its metadata routes, the real plugin mounted in a real host,
// and a real MCP client.
import type { CallToolResult, Client, Tool } from '@modelcontextprotocol/client';
import { expect, vi } from 'vitest';
import type { SharedServices } from '../../src/create-host.js';
import { definePlugin } from '../../src/contract/index.js';
import { type MountSpec } from '../../src/host/index.js';
import jiraPlugin, { JiraOptionsSchema } from '../../src/plugins/jira/index.js';
import type { ClientClock } from '../../src/plugins/jira/client.js';
import { jiraSettings } from '../../src/plugins/jira/options.js';
import { createJiraProvider } from '../../src/plugins/jira/provider.js';
import { type FakeJira, type Flavor, apiOf, jira, startFakeJira } from './fake-jira.js';
import { type MetadataRouteOptions, PROJ, type ProjectFixture, routeMetadata } from './fake-jira-metadata.js';
import { type Connected, connect, createMemoryLogger } from './in-memory.js';

export const TOKEN = 'ATATT3xFfGF0-Sup3rSecret-jira-token';
export const EMAIL = 'mia@example.com';
export const TOKEN_ENV = 'FORESIGHT_TEST_JIRA_TOKEN';
export const EMAIL_ENV = 'FORESIGHT_TEST_JIRA_EMAIL';

export interface JiraRigOptions {
  flavor?: Flavor;
  /** The projects configured and served; default [PROJ]. */
  projects?: ProjectFixture[];
  /** false: no metadata routes (every metadata request gets Jira's 404); else how the metadata routes answer. */
  metadata?: false | MetadataRouteOptions;
  /** Plugin options besides base_url, flavor, projects and the env names (retries default to 0 here). */
  options?: Record<string, unknown>;
  /** Don't wait for the metadata to be in the schemas. */
  noWait?: boolean;
  /** Routes to add before the plugin starts (they win over the metadata routes). */
  routes?: (fake: FakeJira) => void;
  /** The host's per-method deadlines for the plugin. */
  deadlines?: MountSpec['deadlines'];
  /** Reload the metadata this often (the config allows no less than 10 s, so tests inject it here). */
  metadataTtlMs?: number;
  /** The client's clock (rate-limit resets, retry waits); default real time. */
  clock?: ClientClock;
  /** What the host shares with other hosts of a cluster (`joinCluster(...).shared`); default nothing. */
  shared?: SharedServices;
  /** Another rig's fake (a second host on one Jira); that rig closes it. */
  fake?: FakeJira;
}

export interface JiraRig {
  fake: FakeJira;
  flavor: Flavor;
  /** "/rest/api/3" or "/rest/api/2". */
  api: string;
  client: Client;
  connected: Connected;
  logs: Record<string, unknown>[];
  call(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  tool(name: string): Promise<Tool>;
  /** The requests sent to one method and path (under /rest/...). */
  sent(
    method: string,
    path: string,
  ): { query: Record<string, string>; body: unknown; headers: Record<string, string | undefined> }[];
  close(): Promise<void>;
}

/** The jira plugin with its metadata TTL set in milliseconds and its seams injected. */
const withSeams = (ttlMs: number | undefined, clock: ClientClock | undefined) =>
  definePlugin({
    id: 'jira',
    version: '0.0.0-test',
    build: (ctx) => {
      const settings = jiraSettings(JiraOptionsSchema.parse(ctx.config));
      return createJiraProvider(
        { ...settings, ...(ttlMs === undefined ? {} : { metadataTtlMs: ttlMs }) },
        ctx,
        clock ? { clock } : {},
      );
    },
  });

/** A clock for the client that never waits: each sleep is recorded and resolves at once, moving `now` on. */
export function fakeClock(startMs = Date.parse('2024-03-01T10:00:00Z')): ClientClock & { sleeps: number[] } {
  let nowMs = startMs;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => nowMs,
    sleep: (ms) => {
      sleeps.push(ms);
      nowMs += ms;
      return Promise.resolve();
    },
  };
}

export const authHeader = (flavor: Flavor) =>
  flavor === 'cloud' ? `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}` : `Bearer ${TOKEN}`;

export async function startJiraRig(rig: JiraRigOptions = {}): Promise<JiraRig> {
  const flavor = rig.flavor ?? 'cloud';
  const projects = rig.projects ?? [PROJ];
  const fake = rig.fake ?? (await startFakeJira());
  process.env[TOKEN_ENV] = TOKEN;
  process.env[EMAIL_ENV] = EMAIL;
  fake.expectAuth('authorization', authHeader(flavor));
  // The plugin's health probe at start; a test's own routes win.
  fake.route('GET', `${apiOf(flavor)}/myself`, {
    status: 200,
    body: jira.user(flavor, flavor === 'cloud' ? '5b10a2844c20165700ede21g' : 'mia', 'Mia Krystof'),
  });
  if (rig.metadata !== false) routeMetadata(fake, flavor, projects, rig.metadata);
  rig.routes?.(fake);
  const logs: Record<string, unknown>[] = [];
  const connected = await connect({
    planner: { enabled: false },
    logger: createMemoryLogger(logs),
    ...(rig.shared ? { shared: rig.shared } : {}),
    plugins: [
      {
        plugin:
          rig.metadataTtlMs === undefined && rig.clock === undefined
            ? jiraPlugin
            : withSeams(rig.metadataTtlMs, rig.clock),
        options: {
          base_url: fake.url,
          flavor,
          ...(flavor === 'cloud' ? { email_env: EMAIL_ENV } : {}),
          token_env: TOKEN_ENV,
          projects: projects.map((p) => p.key),
          retries: 0,
          ...rig.options,
        },
        ...(rig.deadlines ? { deadlines: rig.deadlines } : {}),
      },
    ],
  });
  const { client } = connected;
  const tool = async (name: string) => {
    const found = (await client.listTools()).tools.find((t) => t.name === `jira__${name}`);
    if (!found) throw new Error(`no tool jira__${name}`);
    return found;
  };
  if (rig.metadata !== false && !rig.noWait && rig.metadata?.gate === undefined) {
    await vi.waitFor(
      async () => expect((await tool('create_issue')).inputSchema.properties?.customFields).toBeUndefined(),
      { timeout: 5000, interval: 10 },
    );
  }
  return {
    fake,
    flavor,
    api: apiOf(flavor),
    client,
    connected,
    logs,
    call: async (name, args = {}) => await client.callTool({ name: `jira__${name}`, arguments: args }),
    tool,
    sent: (method, path) => fake.sent(method, path),
    close: async () => {
      await connected.close();
      if (!rig.fake) await fake.close();
    },
  };
}

export function structured(result: CallToolResult): Record<string, unknown> {
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}

export function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}
