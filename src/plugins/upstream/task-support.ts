// Which upstream tools Foresight may run as tasks of its own. Foresight owns the task towards its client and calls
// the upstream plainly; only a tool a 2026-07-28 upstream runs solely as a task (it refuses a plain call, or the
// `tasks` option says "required") is called as a task upstream, and that task followed to its end within the call
// (upstream-task.ts). Neither era's wire says reliably which tools may run long (2026-07-28 drops `execution`, a
// 2025 Foresight hides it), so the listing's `execution.taskSupport` is completed by what the server declares and
// by the `tasks` option.
import { ProtocolError } from '@modelcontextprotocol/client';
import { errors, type ToolDescriptor } from '../../contract/index.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What the `tasks` option may say of a tool. */
export const TOOL_TASK_SUPPORT = ['forbidden', 'optional', 'required'] as const;
export type ToolTaskSupport = (typeof TOOL_TASK_SUPPORT)[number];

/** The `tasks` key for every tool not named. */
export const ANY_TOOL = '*';

export interface TaskSupportSources {
  /** The server declared the tasks extension: it may make a task of any call, so every tool may run long. */
  serverOffersTasks: boolean;
  /**
   * The `tasks` option: tool name (as the server names it) → its support, over anything else; `"*"` for the tools
   * neither named there nor listed with a support.
   */
  configured?: Readonly<Record<string, ToolTaskSupport>>;
}

/** The tools with the task support Foresight publishes them with; the same descriptors when nothing changes. */
export function withTaskSupport(tools: ToolDescriptor[], sources: TaskSupportSources): ToolDescriptor[] {
  return tools.map((tool) => {
    const support =
      sources.configured?.[tool.name] ??
      tool.execution?.taskSupport ??
      sources.configured?.[ANY_TOOL] ??
      (sources.serverOffersTasks ? 'optional' : undefined);
    if (support === undefined || support === tool.execution?.taskSupport) return tool;
    return { ...tool, execution: { ...tool.execution, taskSupport: support } };
  });
}

/** Whether a server's capabilities declare the tasks extension (2026-07-28: `capabilities.extensions`). */
export function offersTasks(capabilities: { extensions?: Record<string, unknown> } | undefined): boolean {
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
}

/** Missing Required Client Capability (2026-07-28). */
const CAPABILITY_MISSING_CODE = -32021;

/**
 * The server's refusal of a call because the request did not declare the tasks extension, as Foresight's own
 * (-32021 naming the extension), when Foresight cannot follow the upstream's task (a 2025 server, or one that does
 * not declare the extension): the client must learn the tool runs only as a task, not read a tool failure.
 * Undefined for any other failure.
 */
export function tasksRefusal(error: unknown, tool: string): Error | undefined {
  return refusedForTasks(error) ? errors.capabilityMissing('tasks', `tool "${tool}"`) : undefined;
}

/** Whether the server refused a request because it did not declare the tasks extension (-32021 naming it). */
export function refusedForTasks(error: unknown): boolean {
  if (!(error instanceof ProtocolError) || Number(error.code) !== CAPABILITY_MISSING_CODE) return false;
  const data: unknown = error.data;
  if (!isRecord(data) || !isRecord(data.requiredCapabilities)) return false;
  const extensions = data.requiredCapabilities.extensions;
  return isRecord(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
