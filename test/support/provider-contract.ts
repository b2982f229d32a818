// The contract every tracker provider plugin passes against its loopback server (STYLE habit 13): unified tool
// names and annotations, shaped results, value models that name real tools, keys refused before any request,
// follow-up projections that make valid calls, and no token in any answer. Each skip must give its reason.
import { describe, expect, it } from 'vitest';
import { SHAPED_RESULT_KINDS, type ToolValueModel } from '../../src/index.js';
import { projectFollowUp } from '../../src/planner/index.js';
import {
  ISSUE_TOOLS,
  MERGE_REQUEST_TOOLS,
  SPRINT_TOOLS,
  TRACKER_METADATA_TOOLS,
} from '../../src/plugins/kit/index.js';
import type { Connected } from './in-memory.js';
import { TEST_TIMEOUT_MS } from './patience.js';

const UNIFIED = new Set<string>([
  ...Object.keys(ISSUE_TOOLS),
  ...Object.keys(MERGE_REQUEST_TOOLS),
  ...Object.keys(TRACKER_METADATA_TOOLS),
  ...Object.keys(SPRINT_TOOLS),
]);

export interface ProviderUnderTest {
  /** The plugin kind, for test names. */
  kind: string;
  /** Published prefix of the mounted instance, e.g. "gh". */
  prefix: string;
  /** Mounts the plugin against its fake server (with the fake's routes set) through a real client. */
  connect(): Promise<Connected>;
  /** What `rateLimitHost` must say: the instance's API host. */
  apiHost: string;
  /** The token the plugin sends; it must appear in no answer. */
  token: string;
  /** Arguments of a call of each listed tool (local name) that the fake answers. */
  samples: Record<string, Record<string, unknown>>;
  /** How many requests the fake has received so far. */
  requestCount(): number;
  /** Read tools (local names) whose answer is text rather than a shaped result: a CI job's log. */
  textResults?: string[];
  /** Contract checks this provider skips, by name, each with its reason. */
  skips?: Partial<Record<ContractCheck, string>>;
}

export type ContractCheck = 'tools' | 'samples' | 'value models' | 'keys' | 'follow-ups';

function modelOf(c: Connected, published: string): ToolValueModel | undefined {
  const entry = c.host.plugins.publishedTools().find((e) => e.ref.published === published);
  return entry?.enrichers.map((enricher) => enricher.valueModel?.(entry.ref)).find(Boolean);
}

export function runProviderContract(provider: ProviderUnderTest): void {
  const local = (published: string) => published.slice(provider.prefix.length + 2);
  const check = (name: ContractCheck, body: () => Promise<void>) => {
    const reason = provider.skips?.[name];
    if (reason) it.skip(`${name} (skipped: ${reason})`, body);
    else it(name, body, TEST_TIMEOUT_MS);
  };

  describe(`provider contract: ${provider.kind}`, () => {
    check('tools', async () => {
      const c = await provider.connect();
      try {
        const { tools } = await c.client.listTools();
        expect(tools.length).toBeGreaterThan(0);
        for (const tool of tools) {
          const name = local(tool.name);
          expect(UNIFIED.has(name), `${tool.name} is a unified tool name`).toBe(true);
          const read = tool.annotations?.readOnlyHint === true;
          expect(
            Object.hasOwn(tool.inputSchema.properties ?? {}, 'format'),
            `${tool.name}: format iff read`,
          ).toBe(read);
          expect(Object.keys(provider.samples), `a sample call of ${tool.name}`).toContain(name);
        }
      } finally {
        await c.close();
      }
    });

    check('samples', async () => {
      const c = await provider.connect();
      try {
        for (const tool of (await c.client.listTools()).tools) {
          const result = await c.client.callTool({
            name: tool.name,
            arguments: provider.samples[local(tool.name)] ?? {},
          });
          expect(result.isError, `${tool.name}: ${JSON.stringify(result.content).slice(0, 300)}`).toBeFalsy();
          expect(JSON.stringify(result)).not.toContain(provider.token);
          if (tool.annotations?.readOnlyHint === true && !provider.textResults?.includes(local(tool.name))) {
            const kind = (result.structuredContent as { kind?: unknown } | undefined)?.kind;
            expect(SHAPED_RESULT_KINDS, `${tool.name} returns a shaped result`).toContain(kind);
          }
        }
      } finally {
        await c.close();
      }
    });

    check('value models', async () => {
      const c = await provider.connect();
      try {
        const listed = new Set((await c.client.listTools()).tools.map((t) => t.name));
        for (const tool of (await c.client.listTools()).tools) {
          const model = modelOf(c, tool.name);
          expect(model, `${tool.name} has a value model`).toBeDefined();
          if (!model) continue;
          const read = tool.annotations?.readOnlyHint === true;
          expect(model.sideEffect, tool.name).toBe(read ? 'read_only' : 'mutates_external');
          expect(model.rateLimitHost, tool.name).toBe(provider.apiHost);
          for (const other of [...model.invalidates, ...model.followUp.map((link) => link.tool)]) {
            expect(listed.has(other), `${tool.name} names ${other}, which is listed`).toBe(true);
          }
          if (!read)
            expect(model.invalidates.length, `${tool.name} makes something stale`).toBeGreaterThan(0);
        }
      } finally {
        await c.close();
      }
    });

    check('keys', async () => {
      const c = await provider.connect();
      try {
        for (const tool of (await c.client.listTools()).tools) {
          if (!Object.hasOwn(tool.inputSchema.properties ?? {}, 'key')) continue;
          const before = provider.requestCount();
          const result = await c.client.callTool({
            name: tool.name,
            arguments: { ...provider.samples[local(tool.name)], key: 'not a key' },
          });
          expect(result.isError, tool.name).toBe(true);
          expect(provider.requestCount(), `${tool.name} asked nothing of the server`).toBe(before);
        }
      } finally {
        await c.close();
      }
    });

    check('follow-ups', async () => {
      const c = await provider.connect();
      try {
        for (const tool of (await c.client.listTools()).tools) {
          const model = modelOf(c, tool.name);
          if (!model?.followUp.length) continue;
          const result = await c.client.callTool({
            name: tool.name,
            arguments: provider.samples[local(tool.name)] ?? {},
          });
          const entry = c.host.plugins.publishedTools().find((e) => e.ref.published === tool.name);
          for (const link of model.followUp) {
            // The enricher's own projection first, as the planner does; else the generic one.
            const fromEnricher = entry?.enrichers
              .map((enricher) => enricher.projectArgs?.(entry.ref, result, link))
              .find((sets) => sets !== undefined);
            const sets = fromEnricher ?? projectFollowUp(result, link);
            expect(sets.length, `${tool.name} → ${link.tool} via ${link.projection}`).toBeGreaterThan(0);
            for (const args of sets) expect(() => c.host.tools.prepare(link.tool, args)).not.toThrow();
          }
        }
      } finally {
        await c.close();
      }
    });
  });
}
