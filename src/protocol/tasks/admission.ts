// Which 2026-07-28 tool calls may become tasks: a task-capable tool (its `execution.taskSupport`) called with the
// extension declared on the request. A tool that runs only as a task refuses a request without it (-32021).
import type { CallToolResult, ClientCapabilities } from '@modelcontextprotocol/server';
import { errors, type McpTool } from '../../contract/index.js';
import type { InputFlow } from '../input-flow.js';
import type { Escalation } from '../input-rounds.js';
import type { WireErrorOptions } from '../wire-errors.js';
import { settleToolCall } from './outcome.js';
import type { TaskStore } from './store.js';
import { type CreateTaskResult, createTaskResult, declaresTasks } from './wire.js';

/** `optional`: a task when the call runs long; `required`: only clients that declare the extension may call it. */
export type TaskSupport = 'optional' | 'required';

/** A tool's task support as its descriptor declares it (MCP 2025-11-25 `execution.taskSupport`); else none. */
export function taskSupportOf(tool: Pick<McpTool, 'execution'> | undefined): TaskSupport | undefined {
  const support = tool?.execution?.taskSupport;
  return support === 'optional' || support === 'required' ? support : undefined;
}

/** What the server knows to make tasks. */
export interface TaskPolicy {
  store: TaskStore;
  /** How long a call may run before it becomes a task (0: at once). */
  afterMs: number;
  /** The task support of a listed tool, by published name. */
  supportOf(tool: string): TaskSupport | undefined;
}

export interface TaskCall {
  tool: string;
  principal: string;
  capabilities: ClientCapabilities | undefined;
}

/**
 * How a 2026-07-28 tools/call may become a task, or undefined when it runs as a plain call. Throws
 * E_CAPABILITY_MISSING (`-32021`, naming the extension) when the tool runs only as a task and the request did not
 * declare the extension.
 */
export function taskEscalation(
  policy: TaskPolicy,
  call: TaskCall,
  wire: WireErrorOptions,
): Escalation<CallToolResult, CreateTaskResult> | undefined {
  const support = policy.supportOf(call.tool);
  if (support === undefined) return undefined;
  if (!declaresTasks(call.capabilities)) {
    if (support === 'required') throw errors.capabilityMissing('tasks', `tool "${call.tool}"`);
    return undefined;
  }
  return {
    afterMs: policy.afterMs,
    takeOver: (flow) => {
      // InputFlow is invariant in its result; the task reads the result only through `settle`.
      const task = policy.store.create(flow as InputFlow<unknown>, {
        principal: call.principal,
        capabilities: call.capabilities,
        settle: settleToolCall(call.tool, wire),
      });
      return task && createTaskResult(policy.store.view(task));
    },
  };
}
