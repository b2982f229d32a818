// Test seam for the ClickUp plugin: the loopback REST fake with ClickUp's prefix and error bodies, the lists'
// metadata routes, and a rig that mounts the real plugin in a real host behind a real MCP client.
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { expect, vi } from 'vitest';
import type { SharedServices } from '../../src/create-host.js';
import { definePlugin } from '../../src/contract/index.js';
import { type MountSpec } from '../../src/host/index.js';
import clickup, { ClickUpOptionsSchema } from '../../src/plugins/clickup/index.js';
import { clickupSettings } from '../../src/plugins/clickup/options.js';
import { createClickUpProvider } from '../../src/plugins/clickup/provider.js';
import { FIELDS, LIST_ID, MEMBERS, type Body, list, teams } from './fake-clickup-bodies.js';
import { type FakeRest, type RecordedRequest, startFakeRest } from './fake-rest.js';
import { type Connected, connect, createMemoryLogger } from './in-memory.js';

export const API_PREFIX = '/api/v2';
export const TOKEN = 'pk_3141592_SECRETTOKENVALUE0123456789';
export const TOKEN_ENV = 'FORESIGHT_TEST_CLICKUP_TOKEN';

export function startFakeClickUp(): Promise<FakeRest> {
  return startFakeRest({
    name: 'clickup',
    prefix: API_PREFIX,
    unauthorized: { status: 401, body: { err: 'Oauth token not found', ECODE: 'OAUTH_019' } },
    notFound: { status: 404, body: { err: 'Route not found', ECODE: 'APP_001' } },
  });
}

/**
 * Fails the test when the plugin sent a request no route expected (it got ClickUp's 404), except those
 * `expected` allows: a scenario whose point is a missing resource names what it means to miss.
 */
export function expectAllMatched(
  fake: FakeRest,
  expected: (request: RecordedRequest) => boolean = () => false,
) {
  const surprises = fake.unmatched.filter((request) => !expected(request));
  expect(
    surprises.map((r) => `${r.method} ${r.path}`),
    'requests the fake did not expect',
  ).toEqual([]);
}

/** A list's own metadata (GET /list/{id}, its fields, its members): what a failed-metadata scenario leaves unrouted. */
export const isListMetadata = (request: RecordedRequest): boolean =>
  request.method === 'GET' && new RegExp(`^${API_PREFIX}/list/\\d+(/field|/member)?$`).test(request.path);

export interface ListSpec {
  id: string;
  name: string;
  fields?: Body[];
  members?: Body[];
  statuses?: Body[];
}

/** Answers GET /list/{id}, /list/{id}/field and /list/{id}/member for each list; `gate` holds the fields back. */
export function routeMetadata(fake: FakeRest, lists: ListSpec[], gate?: Promise<void>): void {
  for (const spec of lists) {
    fake.route('GET', `/list/${spec.id}`, { status: 200, body: list(spec.id, spec.name, spec.statuses) });
    fake.route('GET', `/list/${spec.id}/field`, async () => {
      await gate;
      return { status: 200, body: { fields: spec.fields ?? Object.values(FIELDS) } };
    });
    fake.route('GET', `/list/${spec.id}/member`, { status: 200, body: { members: spec.members ?? MEMBERS } });
  }
}

/** Answers the plugin's health probe at start (GET /user, the token's user); a test's later route of /user wins. */
export function routeHealthProbe(fake: FakeRest): void {
  fake.route('GET', '/user', { status: 200, body: { user: MEMBERS[0] } });
}

export interface ClickUpRig {
  fake: FakeRest;
  client: Client;
  connected: Connected;
  logs: Record<string, unknown>[];
  call(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Tool name (local) → its input schema's properties. */
  schemas(): Promise<Map<string, Record<string, Record<string, unknown>>>>;
  /** Resolves once the lists' statuses are in the schemas. */
  metadataLoaded(): Promise<void>;
  close(): Promise<void>;
}

export interface RigOptions {
  lists?: ListSpec[] | false;
  options?: Record<string, unknown>;
  gate?: Promise<void>;
  /** Reload period below the options' 10 s minimum, for refresh tests. */
  metadataTtlMs?: number;
  /** The host's per-method deadlines for the plugin. */
  deadlines?: MountSpec['deadlines'];
  /** Requests the scenario means to go unanswered (404); any other unexpected request fails it at close. */
  unmatched?: (request: RecordedRequest) => boolean;
  /** What the host shares with other hosts of a cluster (`joinCluster(...).shared`); default nothing. */
  shared?: SharedServices;
  /** Another rig's fake (a second host on one ClickUp); that rig closes it. */
  fake?: FakeRest;
}

/** The real plugin with a short metadata TTL. */
const withTtl = (ttlMs: number) =>
  definePlugin({
    id: 'clickup',
    version: '0.0.0-test',
    build: (ctx) =>
      createClickUpProvider(
        { ...clickupSettings(ClickUpOptionsSchema.parse(ctx.config)), metadataTtlMs: ttlMs },
        ctx,
      ),
  });

export async function startClickUpRig(rig: RigOptions = {}): Promise<ClickUpRig> {
  const fake = rig.fake ?? (await startFakeClickUp());
  // Restored at close, so no later test file sees this test's token.
  const previousToken = process.env[TOKEN_ENV];
  process.env[TOKEN_ENV] = TOKEN;
  fake.expectAuth('authorization', TOKEN);
  const lists = rig.lists === false ? [] : (rig.lists ?? [{ id: LIST_ID, name: 'Backlog' }]);
  routeMetadata(fake, lists, rig.gate);
  fake.route('GET', '/team', { status: 200, body: teams() });
  routeHealthProbe(fake);
  const logs: Record<string, unknown>[] = [];
  const connected = await connect({
    planner: { enabled: false },
    logger: createMemoryLogger(logs),
    ...(rig.shared ? { shared: rig.shared } : {}),
    plugins: [
      {
        plugin: rig.metadataTtlMs === undefined ? clickup : withTtl(rig.metadataTtlMs),
        options: {
          lists: lists.length ? lists.map((l) => l.id) : [LIST_ID],
          token_env: TOKEN_ENV,
          base_url: `${fake.url}${API_PREFIX}`,
          retries: 0,
          ...rig.options,
        },
        ...(rig.deadlines ? { deadlines: rig.deadlines } : {}),
      },
    ],
  });
  const { client } = connected;
  const schemas = async () => {
    const { tools } = await client.listTools();
    return new Map(
      tools.map((t) => [
        t.name.replace(/^clickup__/, ''),
        (t.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>,
      ]),
    );
  };
  return {
    fake,
    client,
    connected,
    logs,
    call: async (tool, args = {}) => await client.callTool({ name: `clickup__${tool}`, arguments: args }),
    schemas,
    metadataLoaded: () =>
      vi.waitFor(
        async () => {
          const status = (await schemas()).get('create_issue')?.status;
          expect(status?.enum).toBeDefined();
        },
        { timeout: 5000, interval: 10 },
      ),
    close: async () => {
      try {
        await connected.close();
        if (!rig.fake) await fake.close();
      } finally {
        if (previousToken === undefined) delete process.env[TOKEN_ENV];
        else process.env[TOKEN_ENV] = previousToken;
      }
      expectAllMatched(fake, rig.unmatched);
    },
  };
}

export const structured = (result: CallToolResult) =>
  (result.structuredContent ?? {}) as Record<string, unknown>;
export const text = (result: CallToolResult) =>
  result.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
