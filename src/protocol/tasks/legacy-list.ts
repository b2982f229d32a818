// What a 2025 client sees of task support: nothing. Foresight serves it no tasks (it declares no `tasks`
// capability), so a tool's `execution.taskSupport` of optional or required would only promise what it cannot have.
import type { McpTool } from '../../contract/index.js';
import { taskSupportOf } from './admission.js';

const stripped = new WeakMap<readonly McpTool[], McpTool[]>();

/** The list without task support that offers tasks; the same list when none does. Kept per list (rebuilt anew). */
export function withoutTaskSupport(tools: McpTool[]): McpTool[] {
  let list = stripped.get(tools);
  if (list) return list;
  list = tools.some(offersTasks)
    ? tools.map((tool) => {
        if (!offersTasks(tool) || !tool.execution) return tool;
        const { taskSupport: _support, ...execution } = tool.execution;
        const { execution: _execution, ...rest } = tool;
        return Object.keys(execution).length === 0 ? rest : { ...rest, execution };
      })
    : tools;
  stripped.set(tools, list);
  return list;
}

/** `forbidden` says what is true of every tool for a 2025 client, so it stays as the plugin wrote it. */
function offersTasks(tool: McpTool): boolean {
  return taskSupportOf(tool) !== undefined;
}
