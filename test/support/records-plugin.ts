// A small plugin over an in-memory record store, for planner tests: it logs every call it serves (with
// whether it was speculative), can hold calls at a gate, and tracks how many run at once.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Plugin, ToolDescriptor, ToolEnricher, ToolValueModel } from '../../src/contract/index.js';

export interface ServedCall {
  tool: string;
  args: Record<string, unknown>;
  speculative: boolean;
}

export interface RecordsPlugin {
  plugin: Plugin;
  /** Every call the plugin served, in arrival order. */
  log: ServedCall[];
  /** `RequestContext.principal` of each call in `log`, in the same order. */
  principals: Array<string | undefined>;
  records: Map<string, string>;
  /** Most calls of `get` running at the same time. */
  peakConcurrentGets(): number;
  /** From now on `get` calls wait until `release()`; returns the release. */
  holdGets(): () => void;
  /** Calls of `get` waiting at the gate now. */
  heldGets(): number;
  /** The error codes of the held `get` calls whose signal aborted (a held call stops waiting then). */
  abortedGets(): string[];
  /** From now on `put` calls wait until `release()` before they write; returns the release. */
  holdPuts(): () => void;
  /** Calls served of a tool (optionally only speculative ones). */
  count(tool: string, speculative?: boolean): number;
}

export interface RecordsPluginOptions {
  /** Value models the plugin's own enricher gives, by local tool name. */
  models?: Record<string, ToolValueModel>;
  /** Per-call API host for `get`, from the enricher's rateLimitHost. */
  rateLimitHost?: (args: Record<string, unknown>) => string | undefined;
  /** Number of records, keyed r1..rN. */
  size?: number;
}

const TOOLS: ToolDescriptor[] = [
  {
    name: 'list',
    description: 'Lists record keys.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get',
    description: 'Reads one record.',
    inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'put',
    description: 'Writes one record.',
    inputSchema: {
      type: 'object',
      properties: { key: { type: 'string' }, value: { type: 'string' } },
      required: ['key', 'value'],
    },
    annotations: { readOnlyHint: false },
  },
  {
    name: 'touch',
    description: 'Says nothing about its side effects.',
    inputSchema: { type: 'object', properties: { key: { type: 'string' } } },
  },
];

function json(data: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data as never };
}

export function recordsPlugin(options: RecordsPluginOptions = {}): RecordsPlugin {
  const log: ServedCall[] = [];
  const principals: Array<string | undefined> = [];
  const records = new Map<string, string>();
  for (let n = 1; n <= (options.size ?? 5); n++) records.set(`r${n}`, `v${n}.0`);
  let running = 0;
  let peak = 0;
  let gate: Promise<void> | undefined;
  let putGate: Promise<void> | undefined;
  let held = 0;
  const aborted: string[] = [];

  const enricher: ToolEnricher = {
    name: 'records',
    supportedCategories: () => [],
    enrichSchema: () => {},
    transformArgs: () => {},
    valueModel: (tool) => options.models?.[tool.name],
    rateLimitHost: (tool, args) => (tool.name === 'get' ? options.rateLimitHost?.(args) : undefined),
  };

  const plugin: Plugin = {
    id: 'rec',
    version: '1.0.0',
    build: () => ({
      tools: () => TOOLS,
      enrichers: () => (options.models || options.rateLimitHost ? [enricher] : []),
      async callTool(name, args, ctx) {
        log.push({ tool: name, args, speculative: ctx.speculative });
        principals.push(ctx.principal);
        await ctx.log('info', `serving ${name}`);
        await ctx.reportProgress(1, 1);
        if (name === 'list') return json({ items: [...records.keys()].map((key) => ({ key })) });
        if (name === 'get') {
          running += 1;
          peak = Math.max(peak, running);
          try {
            // Read first, then wait: a held call answers with the state it found, as a slow API does.
            const key = String(args.key);
            const value = records.get(key);
            if (gate) {
              held += 1;
              const { signal } = ctx;
              const onAbort = () => aborted.push(String((signal.reason as { code?: unknown }).code));
              signal.addEventListener('abort', onAbort, { once: true });
              await Promise.race([gate, new Promise((resolve) => signal.addEventListener('abort', resolve))]);
              signal.removeEventListener('abort', onAbort);
              held -= 1;
            }
            if (value === undefined) return { isError: true, content: [{ type: 'text', text: `no ${key}` }] };
            return json({ key, value });
          } finally {
            running -= 1;
          }
        }
        if (name === 'put') {
          if (putGate) await putGate;
          records.set(String(args.key), String(args.value));
          return json({ ok: true });
        }
        return json({ touched: args.key ?? null });
      },
    }),
  };

  return {
    plugin,
    log,
    principals,
    records,
    peakConcurrentGets: () => peak,
    holdGets() {
      let release!: () => void;
      gate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
    heldGets: () => held,
    abortedGets: () => [...aborted],
    holdPuts() {
      let release!: () => void;
      putGate = new Promise<void>((resolve) => (release = resolve));
      return () => {
        putGate = undefined;
        release();
      };
    },
    count: (tool, speculative) =>
      log.filter(
        (call) => call.tool === tool && (speculative === undefined || call.speculative === speculative),
      ).length,
  };
}
