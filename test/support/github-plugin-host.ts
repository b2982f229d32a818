// Test seam: the real github plugin in a real host, reached by a real MCP client, against the fake GitHub server.
import type { CallToolResult } from '@modelcontextprotocol/client';
import github from '../../src/plugins/github/index.js';
import { type FakeGitHub, type RecordedRequest, gh, startFakeGitHub } from './fake-github.js';
import { type Connected, connect, textOf } from './in-memory.js';

export const REPO = 'octo-org/octo-repo';
export const TOKEN_ENV = 'GH_TEST_TOKEN';
/** A token-shaped secret: no result or error may ever show it. */
export const TOKEN = 'ghp_SECRETsecretSECRET0123456789abcdef';

export interface GitHubHost {
  fake: FakeGitHub;
  connected: Connected;
  /** Calls `github__<tool>` as an agent would. */
  call(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** The text of a call that must succeed (fails the test with the error text otherwise). */
  text(tool: string, args?: Record<string, unknown>): Promise<string>;
  /** The text of a call that must fail. */
  error(tool: string, args?: Record<string, unknown>): Promise<string>;
  /** Requests other than the background load of labels and milestones and the health probe at start. */
  calls(): RecordedRequest[];
  close(): Promise<void>;
}

const METADATA = /^\/repos\/[^/]+\/[^/]+\/(labels|milestones)$/;

/**
 * The requests a test's calls made: without the background metadata loads, and without the health probe (the
 * first GET of the repository, which ends before any call runs, since calls wait for the plugin to leave
 * `starting`).
 */
export function callsOf(requests: readonly RecordedRequest[], repo: string): RecordedRequest[] {
  const probe = requests.find((r) => r.method === 'GET' && r.path === `/repos/${repo}`);
  return requests.filter((r) => r !== probe && !METADATA.test(r.path));
}

/** Starts the fake (expecting TOKEN) and a host with one github plugin on it: no retries, no throttling. */
export async function startGitHubHost(options: { repo?: string } = {}): Promise<GitHubHost> {
  const fake = await startFakeGitHub();
  fake.expectToken(`token ${TOKEN}`);
  fake.route('GET', '/repos/:owner/:repo/labels', { status: 200, body: [] });
  fake.route('GET', '/repos/:owner/:repo/milestones', { status: 200, body: [] });
  // The plugin's health probe at start.
  fake.route('GET', '/repos/:owner/:repo', (_r, params) => ({
    status: 200,
    body: gh.repository(`${params.owner}/${params.repo}`),
  }));
  process.env[TOKEN_ENV] = TOKEN;
  const connected = await connect({
    // The request logs asserted here are the provider's own: the planner's are tested in planner-*.test.ts.
    planner: { enabled: false },
    plugins: [
      {
        plugin: github,
        options: {
          repo: options.repo ?? REPO,
          base_url: fake.url,
          token_env: TOKEN_ENV,
          retries: 0,
          throttle: false,
        },
      },
    ],
  });
  const call = async (tool: string, args: Record<string, unknown> = {}) =>
    await connected.client.callTool({ name: `github__${tool}`, arguments: args });
  return {
    fake,
    connected,
    call,
    async text(tool, args) {
      const result = await call(tool, args);
      if (result.isError) throw new Error(`${tool} failed: ${textOf(result)}`);
      return textOf(result);
    },
    async error(tool, args) {
      const result = await call(tool, args);
      if (!result.isError) throw new Error(`${tool} succeeded: ${textOf(result)}`);
      return textOf(result);
    },
    calls: () => callsOf(fake.requests, options.repo ?? REPO),
    async close() {
      await connected.close();
      await fake.close();
      delete process.env[TOKEN_ENV];
    },
  };
}
