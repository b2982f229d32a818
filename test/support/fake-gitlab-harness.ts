// Test rig for the gitlab plugin: the fake GitLab, the real plugin mounted in a real host, and a real MCP client.
import type { CallToolResult, Client } from '@modelcontextprotocol/client';
import { expect, vi } from 'vitest';
import type { SharedServices } from '../../src/create-host.js';
import type { MountSpec } from '../../src/host/index.js';
import gitlab from '../../src/plugins/gitlab/index.js';
import { DEFAULT_PROJECT, gl } from './fake-gitlab-bodies.js';
import { type FakeGitLab, type RecordedRequest, paged, startFakeGitLab } from './fake-gitlab.js';
import { type Connected, connect, createMemoryLogger } from './in-memory.js';

export const TOKEN = 'glpat-Sup3rSecret-t0ken-xyz';
export const TOKEN_ENV = 'FORESIGHT_TEST_GITLAB_TOKEN';
/** How the default project appears in request paths. */
export const PROJECT_PATH = `/projects/${encodeURIComponent(DEFAULT_PROJECT)}`;

export interface RigOptions {
  /** Plugin options besides project, base_url and token_env (retries default to 0 here). */
  options?: Record<string, unknown>;
  /** Labels and active milestones the project has; false leaves the metadata routes out. */
  metadata?:
    | {
        labels?: string[];
        milestones?: { id: number; title: string }[];
        defaultBranch?: string;
        /** The labels are answered only once this settles: a test can look at the schemas before. */
        gate?: Promise<void>;
      }
    | false;
  /** Require this token (PRIVATE-TOKEN unless options.auth is "bearer"); default: TOKEN. */
  token?: string;
  /** The host's per-method deadlines for the plugin. */
  deadlines?: MountSpec['deadlines'];
  /** What the host shares with other hosts of a cluster (`joinCluster(...).shared`); default nothing. */
  shared?: SharedServices;
  /** Another rig's fake (a second host on one GitLab); that rig closes it. */
  fake?: FakeGitLab;
}

export interface GitLabRig {
  fake: FakeGitLab;
  client: Client;
  connected: Connected;
  /** What the host and the plugin logged. */
  logs: Record<string, unknown>[];
  /** Calls gitlab__<tool> through the MCP client. */
  call(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Answers a list route with GitLab's pagination over `items`. */
  list(
    method: string,
    pattern: string,
    items: readonly unknown[] | ((request: RecordedRequest) => unknown[]),
  ): void;
  /** Resolves once the project's labels and milestones are in the schemas. */
  metadataLoaded(): Promise<void>;
  close(): Promise<void>;
}

export async function startGitLabRig(rig: RigOptions = {}): Promise<GitLabRig> {
  const fake = rig.fake ?? (await startFakeGitLab());
  process.env[TOKEN_ENV] = TOKEN;
  const bearer = rig.options?.auth === 'bearer';
  fake.expectAuth(
    bearer ? 'authorization' : 'private-token',
    bearer ? `Bearer ${TOKEN}` : (rig.token ?? TOKEN),
  );

  const list: GitLabRig['list'] = (method, pattern, items) =>
    fake.route(method, pattern, (request) =>
      paged(typeof items === 'function' ? items(request) : items, request, fake.url),
    );

  // The plugin's health probe at start (GET /user with a token); a test's later route wins.
  fake.route('GET', '/user', { status: 200, body: gl.user('mia') });
  if (rig.metadata !== false) {
    const meta = rig.metadata ?? {};
    fake.route('GET', '/projects/:project', (_r, params) => ({
      status: 200,
      body: gl.project(params.project, meta.defaultBranch),
    }));
    const labels = (meta.labels ?? ['bug', 'feature']).map((name) => gl.label(name));
    fake.route('GET', '/projects/:project/labels', async (request) => {
      await meta.gate;
      return paged(labels, request, fake.url);
    });
    list(
      'GET',
      '/projects/:project/milestones',
      (meta.milestones ?? [{ id: 11, title: 'v1.0' }]).map((m) => gl.milestone(m.id, m.title)),
    );
  }

  const logs: Record<string, unknown>[] = [];
  const connected = await connect({
    // The request logs asserted here are the provider's own: the planner's are tested in planner-*.test.ts.
    planner: { enabled: false },
    logger: createMemoryLogger(logs),
    ...(rig.shared ? { shared: rig.shared } : {}),
    plugins: [
      {
        plugin: gitlab,
        options: {
          project: DEFAULT_PROJECT,
          base_url: fake.url,
          token_env: TOKEN_ENV,
          retries: 0,
          ...rig.options,
        },
        ...(rig.deadlines ? { deadlines: rig.deadlines } : {}),
      },
    ],
  });
  const { client } = connected;

  return {
    fake,
    client,
    connected,
    logs,
    call: async (tool, args = {}) => await client.callTool({ name: `gitlab__${tool}`, arguments: args }),
    list,
    metadataLoaded: () =>
      vi.waitFor(
        async () => {
          const { tools } = await client.listTools();
          const create = tools.find((t) => t.name === 'gitlab__create_issue');
          const properties = create?.inputSchema.properties as Record<string, { items?: { enum?: unknown } }>;
          expect(properties.labels?.items?.enum).toBeDefined();
        },
        { timeout: 5000, interval: 10 },
      ),
    close: async () => {
      await connected.close();
      if (rig.fake) return;
      await fake.close();
      // A request no route answered is a wrong path or method (the metadata of a rig without it aside).
      const metadata = /^\/api\/v4\/projects\/[^/]+(\/labels|\/milestones)?$/;
      expect(fake.unmatched.filter((r) => !(rig.metadata === false && metadata.test(r.path)))).toEqual([]);
    },
  };
}

/** The structuredContent of a result, typed loosely for assertions. */
export function structured(result: CallToolResult): Record<string, unknown> {
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}

/** The text of a result's content blocks, joined. */
export function text(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}
