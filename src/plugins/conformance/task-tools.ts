// Tools for the suite's tasks-* scenarios (the io.modelcontextprotocol/tasks extension): one that never becomes a
// task, and task-capable ones that compute slowly, fail, ask for input, or ask before their long part. Each works
// at least half a second before it could become a task, so the conformance config's task_after_ms must be shorter.
import { setTimeout as sleep } from 'node:timers/promises';
import { errors, type RequestContext, type ToolDescriptor } from '../../contract/index.js';
import { NO_ARGUMENTS, errorResult, requireString, textResult, type FixtureTool } from './fixture-tool.js';
import { answerOf, askFor, askToConfirm, confirmedIn, rootsOf } from './forms.js';

/** Work the call does before it asks or answers: long enough that, with the suite's config, it becomes a task. */
const WORK_MS = 500;

const work = (ctx: RequestContext, ms: number) => sleep(ms, undefined, { signal: ctx.signal });

function taskCapable(
  descriptor: Omit<ToolDescriptor, 'execution'>,
  support: 'optional' | 'required',
): ToolDescriptor {
  return { ...descriptor, execution: { taskSupport: support } };
}

export const TASK_TOOLS: readonly FixtureTool[] = [
  {
    descriptor: {
      name: 'greet',
      description: 'Greets someone at once; never a task.',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
    run: async (args) => textResult(`Hello, ${requireString(args, 'name', 'greet')}!`),
  },
  {
    descriptor: taskCapable(
      {
        name: 'slow_compute',
        description:
          'Computes for `seconds` seconds (0: at once) and reports the label; a task when it runs long. Cancelling the task stops it.',
        inputSchema: {
          type: 'object',
          properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
          required: ['seconds'],
        },
      },
      'optional',
    ),
    run: async (args, ctx) => {
      const seconds = typeof args.seconds === 'number' ? args.seconds : 0;
      const label = typeof args.label === 'string' ? args.label : 'computation';
      if (seconds > 0) await work(ctx, seconds * 1000);
      return textResult(`${label}: done after ${seconds} s`);
    },
  },
  {
    descriptor: taskCapable(
      {
        name: 'failing_job',
        description:
          'Runs for a second and reports a tool error; only a client with the tasks extension may call it.',
        inputSchema: NO_ARGUMENTS,
      },
      'required',
    ),
    run: async (_args, ctx) => {
      await work(ctx, 1_000);
      return errorResult('the job failed: its input was rejected by the build farm');
    },
  },
  {
    descriptor: taskCapable(
      {
        name: 'protocol_error_job',
        description:
          "Works half a second, then asks for the client's roots: without the roots capability that is a protocol error (-32021), so its task fails.",
        inputSchema: NO_ARGUMENTS,
      },
      'optional',
    ),
    run: async (_args, ctx) => {
      await work(ctx, WORK_MS);
      if (!ctx.listRoots) throw errors.capabilityMissing('roots');
      const roots = await ctx.listRoots();
      return textResult(`roots: ${rootsOf(roots)}`);
    },
  },
  {
    descriptor: taskCapable(
      {
        name: 'confirm_delete',
        description:
          'Looks a file up, then asks the user to confirm deleting it (the task waits for the answer).',
        inputSchema: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
      },
      'optional',
    ),
    run: async (args, ctx) => {
      const filename = requireString(args, 'filename', 'confirm_delete');
      await work(ctx, WORK_MS);
      const answer = await ctx.elicit(askToConfirm('confirm', `Delete ${filename}?`));
      return textResult(confirmedIn(answer, 'confirm') ? `Deleted ${filename}` : `Kept ${filename}`);
    },
  },
  {
    descriptor: taskCapable(
      {
        name: 'multi_input',
        description:
          'Works half a second, then asks two questions at once (two input requests pending together).',
        inputSchema: NO_ARGUMENTS,
      },
      'optional',
    ),
    run: async (_args, ctx) => {
      await work(ctx, WORK_MS);
      const [name, go] = await Promise.all([
        ctx.elicit(askFor('name', 'Who runs this?')),
        ctx.elicit(askToConfirm('confirm', 'Go ahead?')),
      ]);
      return textResult(
        `${answerOf(name, 'name')}: ${confirmedIn(go, 'confirm') ? 'went ahead' : 'stopped'}`,
      );
    },
  },
  {
    descriptor: taskCapable(
      {
        name: 'test_tool_with_task',
        description:
          "Asks the user's name first (an input_required answer to the tools/call), then works a second: the retry becomes a task whose result greets them.",
        inputSchema: NO_ARGUMENTS,
      },
      'required',
    ),
    run: async (_args, ctx) => {
      const answer = await ctx.elicit(askFor('name', 'What is your name?'), { key: 'user_name' });
      await work(ctx, 1_000);
      return textResult(`Hello, ${answerOf(answer, 'name')}! Your report is ready.`);
    },
  },
];
