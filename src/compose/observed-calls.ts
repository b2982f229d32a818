// Who hears of each tool call that ends (the audit log, the metrics), and the agent streams' tools that tell them.
import { type AuditRecord, type CallObserver, AuditLog, auditedTools } from '../audit/index.js';
import { type AuditConfig, redactSecrets } from '../config/index.js';
import type { Logger } from '../contract/index.js';
import type { HostMetrics } from '../ops/index.js';
import type { Planner } from '../planner/index.js';
import type { StreamOrigin, ToolService } from '../protocol/index.js';

/** A call observer that says whether anyone listens now. */
export type ObservedCalls = CallObserver & { observing(): boolean };

/** The audit log the settings ask for (not yet open); undefined when off. */
export function createAuditLog(settings: AuditConfig, logger: Logger): AuditLog | undefined {
  return settings.enabled ? new AuditLog({ file: settings.file, redact: redactSecrets, logger }) : undefined;
}

/**
 * The audit log and the metrics, each told of every call that ends; undefined when neither is on. The metrics hear
 * only once they count (an HTTP listener serves them), and `observing()` says whether anyone listens now.
 */
export function callObserver(
  audit: AuditLog | undefined,
  metrics: HostMetrics | undefined,
): ObservedCalls | undefined {
  if (!audit && !metrics) return undefined;
  return {
    write(record: AuditRecord) {
      audit?.write(record);
      if (metrics?.counting) metrics.observeCall(record);
    },
    observing: () => audit !== undefined || metrics?.counting === true,
  };
}

/**
 * Every agent stream's tools, whatever the transport or era: the one place each tools/call answer passes, told to
 * the observer while anyone listens.
 */
export function agentTools(
  planner: Planner,
  observer: ObservedCalls | undefined,
  pluginOf: (tool: string) => string | undefined,
): (stream: StreamOrigin) => ToolService {
  return observer
    ? (stream: StreamOrigin) =>
        // A stdio server without an audit log observes nothing: its calls skip the wrapper altogether.
        observer.observing()
          ? auditedTools(planner.openSession(stream), stream, observer, pluginOf)
          : planner.openSession(stream)
    : (stream: StreamOrigin) => planner.openSession(stream);
}
