// The one factory for a call's RequestContext: what the plugin may do towards the client during one call.
import type {
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  LoggingLevel,
} from '@modelcontextprotocol/sdk/types.js';
import type { RequestContext } from './contract.js';
import { errors } from './errors.js';

/** What the protocol layer offers one request; every member is optional so embedders and tests can omit them. */
export interface CallEnvironment {
  /** Aborted when the client cancels the request. */
  signal?: AbortSignal;
  sendProgress?(progress: number, total?: number, message?: string): Promise<void>;
  sendLog?(level: LoggingLevel, data: unknown): Promise<void>;
  /** Undefined when the client did not declare the sampling capability. */
  createMessage?(params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult>;
  /** Undefined when the client did not declare the elicitation capability. */
  elicit?(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
  speculative?: boolean;
  closeSSEStream?(): void;
}

export function createRequestContext(env: CallEnvironment, signal: AbortSignal): RequestContext {
  const speculative = env.speculative ?? false;
  // Notifications after the call has ended would reach a client that no longer waits for them.
  const open = () => !signal.aborted;
  return {
    signal,
    speculative,
    closeSSEStream: env.closeSSEStream,
    reportProgress: async (progress, total, message) => {
      if (open() && !speculative) await env.sendProgress?.(progress, total, message);
    },
    log: async (level, data) => {
      if (open() && !speculative) await env.sendLog?.(level, data);
    },
    createMessage: async (params) => {
      if (speculative) throw errors.speculativeForbidden('sampling (createMessage)');
      if (!env.createMessage) throw errors.capabilityMissing('sampling');
      return env.createMessage(params, signal);
    },
    elicit: async (params) => {
      if (speculative) throw errors.speculativeForbidden('elicitation (elicit)');
      if (!env.elicit) throw errors.capabilityMissing('elicitation');
      return env.elicit(params, signal);
    },
  };
}
