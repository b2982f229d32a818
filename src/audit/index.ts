// Public surface of the audit area: one JSON line per tool call (who, which tool, outcome, latency, speculative).
export { AuditLog, type AuditLogOptions } from './log.js';
export {
  auditedTools,
  prefetchRecord,
  scopeRefusalRecord,
  type AuditedStream,
  type CallObserver,
  type ScopeRefusedCall,
} from './audited-tools.js';
export {
  type AuditRecord,
  type AuditOutcome,
  type Speculative,
  INSUFFICIENT_SCOPE,
  TOOL_ERROR,
} from './record.js';
