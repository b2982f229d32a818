// Puts the audit log in front of one agent stream's tools: every call it answers writes one line.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { CallEnvironment } from '../host/index.js';
import { PREFETCH_META_KEY, type SpeculativeCallReport } from '../planner/index.js';
import type { ToolService } from '../protocol/index.js';
import { type AuditRecord, type Speculative, INSUFFICIENT_SCOPE, latencySince, outcomeOf } from './record.js';

/** Who the stream is and how it is connected. */
export interface AuditedStream {
  principal: string;
  era?: AuditRecord['era'];
  transport?: AuditRecord['transport'];
}

/**
 * Hears of each call once it ends, as its audit line: the audit log writes it, the metrics count it. One observation
 * point for both, so a call is never wrapped twice.
 */
export interface CallObserver {
  write(record: AuditRecord): void;
}

/** Every call of `tools` is told to `log` when it ends, whatever way it ends; arguments are never read. */
export function auditedTools(
  tools: ToolService,
  stream: AuditedStream,
  log: CallObserver,
  pluginOf: (tool: string) => string | undefined,
): ToolService {
  const line = (
    tool: string,
    startedAtMs: number,
    requestId: string | number | undefined,
    ended: { result: CallToolResult } | { error: unknown },
  ): AuditRecord => {
    const plugin = pluginOf(tool);
    return {
      audit: true,
      time: new Date().toISOString(),
      principal: stream.principal,
      tool,
      ...(plugin === undefined ? {} : { plugin }),
      ...outcomeOf(ended),
      latency_ms: latencySince(startedAtMs),
      speculative: 'result' in ended ? servedBy(ended.result) : false,
      ...(stream.era === undefined ? {} : { era: stream.era }),
      ...(stream.transport === undefined ? {} : { transport: stream.transport }),
      ...(requestId === undefined ? {} : { request_id: requestId }),
    };
  };
  return {
    listTools: () => tools.listTools(),
    onToolsChanged: (listener) => tools.onToolsChanged(listener),
    dispose: () => tools.dispose?.(),
    async callTool(name: string, args: Record<string, unknown>, env?: CallEnvironment) {
      const startedAtMs = performance.now();
      // Read at the start: a task may drive the call later, and it has no request id of its own.
      const requestId = env?.requestId;
      try {
        const result = await tools.callTool(name, args, env);
        log.write(line(name, startedAtMs, requestId, { result }));
        return result;
      } catch (error) {
        log.write(line(name, startedAtMs, requestId, { error }));
        throw error;
      }
    },
  };
}

/** The line of a call the planner ran ahead on its own. */
export function prefetchRecord(report: SpeculativeCallReport): AuditRecord {
  return {
    audit: true,
    time: new Date().toISOString(),
    principal: report.principal,
    tool: report.tool,
    plugin: report.plugin,
    ...outcomeOf(report.result ? { result: report.result } : { error: report.error }),
    latency_ms: Math.round(report.latencyMs * 10) / 10,
    speculative: 'prefetch',
  };
}

/** A call refused before it reached its tool, for want of an OAuth scope ([auth.scopes]): no tool ran. */
export interface ScopeRefusedCall {
  principal: string;
  /** Published name, as the client asked for it. */
  tool: string;
  plugin: string | undefined;
  era: 'legacy' | 'modern';
  requestId: string | number | null;
}

/** The line of a refused call: an `error` outcome with the code `insufficient_scope`, over HTTP, 0 ms. */
export function scopeRefusalRecord(call: ScopeRefusedCall): AuditRecord {
  return {
    audit: true,
    time: new Date().toISOString(),
    principal: call.principal,
    tool: call.tool,
    ...(call.plugin === undefined ? {} : { plugin: call.plugin }),
    outcome: 'error',
    error: { code: INSUFFICIENT_SCOPE },
    latency_ms: 0,
    speculative: false,
    era: call.era,
    transport: 'http',
    ...(call.requestId === null ? {} : { request_id: call.requestId }),
  };
}

/** How the planner answered the agent's call, read from the mark it puts on a served result. */
function servedBy(result: CallToolResult): Speculative {
  const served = result._meta?.[PREFETCH_META_KEY] as { source?: unknown } | undefined;
  if (served?.source === 'cache') return 'hit';
  if (served?.source === 'in_flight') return 'join';
  return false;
}
