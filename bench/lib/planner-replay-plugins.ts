// Instrumented plugins for the planner replay: a wrapper that counts every tool call a plugin serves (the
// agent's and the planner's speculative ones apart) and can add an injected upstream latency to each.
import type { Plugin, PluginProvider } from '../../src/contract/index.js';
import { mixSeed } from './corpus-sessions.js';
import { canonicalJson } from './planner-replay-compare.js';

/** What one plugin instance served, counted as calls reach it (after the host's pipeline). */
export interface CallLog {
  /** Every call, the agent's and speculative ones. */
  calls: number;
  /** Calls made with `RequestContext.speculative` set. */
  speculative: number;
  /** Calls per tool without it: the agent's own calls that reached the plugin. */
  agentCalls: Record<string, number>;
  /** Speculative calls of tools whose annotations say they write (`readOnlyHint: false`). */
  speculativeWrites: number;
  byTool: Record<string, { calls: number; speculative: number }>;
  /** Calls still running. */
  inFlight: number;
  /** Every speculative call as `tool {canonical args}`, in order (for BENCH_PLANNER_TRACE). */
  speculativeCalls: string[];
}

export function createCallLog(): CallLog {
  return {
    calls: 0,
    speculative: 0,
    agentCalls: {},
    speculativeWrites: 0,
    byTool: {},
    inFlight: 0,
    speculativeCalls: [],
  };
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * An upstream latency for a request, uniform in [lowMs, highMs] × scale and fixed by the request's identity:
 * the same request costs the same with the planner off and on, so the two modes differ only in what is
 * asked, not in luck.
 */
export function latencyFor(seed: number, key: string, lowMs: number, highMs: number, scale: number): number {
  const u = mixSeed(seed, 'latency', key) / 4294967296;
  return (lowMs + u * (highMs - lowMs)) * scale;
}

export interface InstrumentOptions {
  log: CallLog;
  /** Latency to add before each call reaches the plugin, in ms; none when absent. */
  latencyMs?: (tool: string, args: Record<string, unknown>) => number;
}

/**
 * The same plugin, its provider wrapped: callTool is counted (and delayed, honouring the call's signal);
 * every other member is the provider's own, bound to it.
 */
export function instrumentPlugin(plugin: Plugin, options: InstrumentOptions): Plugin {
  const { log } = options;
  return {
    ...plugin,
    async build(ctx) {
      const provider = await plugin.build(ctx);
      const writes = new Set(
        provider
          .tools()
          .filter((tool) => tool.annotations?.readOnlyHint === false)
          .map((tool) => tool.name),
      );
      const callTool: PluginProvider['callTool'] = async (name, args, rc) => {
        log.calls += 1;
        const entry = (log.byTool[name] ??= { calls: 0, speculative: 0 });
        entry.calls += 1;
        if (!rc.speculative) log.agentCalls[name] = (log.agentCalls[name] ?? 0) + 1;
        if (rc.speculative) {
          log.speculative += 1;
          entry.speculative += 1;
          log.speculativeCalls.push(callKey(name, args));
          if (writes.has(name)) log.speculativeWrites += 1;
        }
        log.inFlight += 1;
        try {
          const delay = options.latencyMs?.(name, args) ?? 0;
          if (delay > 0) await sleep(delay, rc.signal);
          return await provider.callTool(name, args, rc);
        } finally {
          log.inFlight -= 1;
        }
      };
      return new Proxy(provider, {
        get(target, property, receiver) {
          if (property === 'callTool') return callTool;
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
    },
  };
}

/** The workspace latency key: the tool and its arguments in canonical JSON. */
export function callKey(tool: string, args: Record<string, unknown>): string {
  return `${tool} ${canonicalJson(args)}`;
}
