// A plugin with task-capable tools whose calls the test controls: each waits on a gate the test opens, so whether a
// call is still running, asking or done never depends on timing. It records why a call's signal aborted.
import { type Plugin, type RequestContext, type ToolDescriptor, definePlugin } from '../../src/index.js';
import { askFor, askToConfirm, confirmedIn } from '../../src/plugins/conformance/forms.js';

export interface TaskPlugin {
  plugin: Plugin;
  /** Lets the call waiting on `label` go on. */
  open(label: string): void;
  /** Why the signal of the call with `label` aborted; undefined while it has not. */
  aborted: Map<string, unknown>;
  /** Resolves once the call with `label` has aborted. */
  abortedOf(label: string): Promise<unknown>;
}

const NONE = { type: 'object' as const, properties: {} };
const LABELLED = { type: 'object' as const, properties: { label: { type: 'string' } }, required: ['label'] };

const withTaskSupport =
  (taskSupport: 'optional' | 'required') =>
  (tool: ToolDescriptor): ToolDescriptor => ({ ...tool, execution: { taskSupport } });
const optional = withTaskSupport('optional');
const required = withTaskSupport('required');

const CONFIRM = askToConfirm('ok', 'Go ahead?');

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

export function taskPlugin(id = 'job'): TaskPlugin {
  const gates = new Map<string, { opened: Promise<void>; open(): void }>();
  const gate = (label: string) => {
    let entry = gates.get(label);
    if (!entry) {
      let open = () => {};
      const opened = new Promise<void>((resolve) => (open = resolve));
      entry = { opened, open };
      gates.set(label, entry);
    }
    return entry;
  };
  const aborted = new Map<string, unknown>();
  const abortWaiters = new Map<string, (reason: unknown) => void>();
  const abortedOf = (label: string) =>
    aborted.has(label)
      ? Promise.resolve(aborted.get(label))
      : new Promise<unknown>((resolve) => abortWaiters.set(label, resolve));

  /** Waits for the test to open `label`, or for the call to be aborted (recorded, then thrown). */
  const hold = async (label: string, ctx: RequestContext) => {
    const { signal } = ctx;
    const stopped = new Promise<never>((_resolve, reject) => {
      const onAbort = () => {
        aborted.set(label, signal.reason);
        abortWaiters.get(label)?.(signal.reason);
        reject(signal.reason);
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    await Promise.race([gate(label).opened, stopped]);
  };

  const plugin = definePlugin({
    id,
    version: '1.0.0',
    build: () => ({
      tools: (): ToolDescriptor[] => [
        { name: 'plain', description: 'Not task-capable: answers at once.', inputSchema: NONE },
        optional({ name: 'quick', description: 'Task-capable, answers at once.', inputSchema: NONE }),
        optional({
          name: 'held',
          description: 'Waits until the test opens its label.',
          inputSchema: LABELLED,
        }),
        optional({ name: 'ask', description: 'Asks to confirm, then answers.', inputSchema: NONE }),
        optional({ name: 'ask_two', description: 'Asks two questions at once.', inputSchema: NONE }),
        optional({
          name: 'time_left',
          description: 'Says how long its deadline leaves it.',
          inputSchema: NONE,
        }),
        optional({ name: 'tool_error', description: 'Reports a tool error.', inputSchema: NONE }),
        optional({ name: 'needs_roots', description: "Asks for the client's roots.", inputSchema: NONE }),
        required({ name: 'only_task', description: 'Runs only as a task.', inputSchema: NONE }),
        required({
          name: 'gather_then_hold',
          description: 'Asks a name first, then waits until the test opens its label.',
          inputSchema: LABELLED,
        }),
      ],
      callTool: async (name, args, ctx) => {
        const label = String(args.label ?? '');
        switch (name) {
          case 'held':
            await hold(label, ctx);
            return text(`done: ${label}`);
          case 'ask': {
            const answer = await ctx.elicit(CONFIRM);
            return text(`confirmed: ${confirmedIn(answer, 'ok')}`);
          }
          case 'ask_two': {
            const [first, second] = await Promise.all([ctx.elicit(CONFIRM), ctx.elicit(CONFIRM)]);
            return text(`answers: ${first.action}, ${second.action}`);
          }
          case 'time_left':
            return text(String(ctx.timeLeftMs()));
          case 'tool_error':
            return { isError: true, content: [{ type: 'text', text: 'the job failed' }] };
          case 'needs_roots': {
            if (!ctx.listRoots) throw new Error('no listRoots in this context');
            const roots = await ctx.listRoots();
            return text(`roots: ${roots.roots.length}`);
          }
          case 'gather_then_hold': {
            const answer = await ctx.elicit(askFor('name', 'Your name?'), { key: 'user_name' });
            await hold(label, ctx);
            return text(`Hello, ${String(answer.content?.name ?? '')}`);
          }
          default:
            return text(`${name}: done`);
        }
      },
    }),
  });
  return { plugin, open: (label) => gate(label).open(), aborted, abortedOf };
}
