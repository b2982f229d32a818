// Tools that ask the client for input under the keys the suite expects (multi round-trip requests for a
// 2026-07-28 client, requests during the call for a 2025 one), and the suite's per-request diagnostics.
import { setTimeout as sleep } from 'node:timers/promises';
import { errors, isForesightError, type RequestContext } from '../../contract/index.js';
import { NO_ARGUMENTS, textResult, type FixtureTool } from './fixture-tool.js';
import { answerOf, askFor, askToConfirm, confirmedIn, rootsOf } from './forms.js';

function samplingText(content: unknown): string {
  const block = Array.isArray(content) ? (content[0] as unknown) : content;
  return (block as { type?: string; text?: string } | undefined)?.type === 'text'
    ? String((block as { text: string }).text)
    : '[non-text content]';
}

const ask = (ctx: RequestContext, prompt: string, key: string, maxTokens: number) =>
  ctx.createMessage(
    { messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens },
    { key },
  );

/** A tool that asks the client's model one question and returns the answer. */
function modelTool(name: string, description: string, prompt: string, key: string): FixtureTool {
  return {
    descriptor: { name, description, inputSchema: NO_ARGUMENTS },
    run: async (_args, ctx) => {
      const result = await ask(ctx, prompt, key, 100);
      return textResult(`The model says: ${samplingText(result.content)}`);
    },
  };
}

/** Whether a call was refused for a capability the client did not declare (the call goes on without it). */
function isCapabilityMissing(error: unknown): boolean {
  return isForesightError(error) && error.code === errors.capabilityMissing.code;
}

export const INPUT_TOOLS: readonly FixtureTool[] = [
  {
    descriptor: {
      name: 'test_input_required_result_elicitation',
      description: 'Asks the user for a name (key user_name) and greets them.',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      const answer = await ctx.elicit(askFor('name', 'What is your name?'), { key: 'user_name' });
      return textResult(`Hello, ${answerOf(answer, 'name')}!`);
    },
  },
  modelTool(
    'test_input_required_result_sampling',
    "Asks the client's model for the capital of France (key capital_question).",
    'What is the capital of France?',
    'capital_question',
  ),
  {
    descriptor: {
      name: 'test_input_required_result_list_roots',
      description: "Asks for the client's roots (key client_roots) and lists them.",
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      if (!ctx.listRoots) throw errors.capabilityMissing('roots');
      const roots = await ctx.listRoots({ key: 'client_roots' });
      return textResult(`The client's roots: ${rootsOf(roots)}`);
    },
  },
  {
    descriptor: {
      name: 'test_input_required_result_request_state',
      description:
        'Asks for a confirmation (key confirm); the retry completes only with the signed requestState Foresight issued.',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      const answer = await ctx.elicit(askToConfirm('ok', 'Please confirm'), { key: 'confirm' });
      // The host verified the requestState's signature, principal and request before this call went on.
      return textResult(`state-ok: confirmed=${confirmedIn(answer, 'ok')}`);
    },
  },
  {
    descriptor: {
      name: 'test_input_required_result_multiple_inputs',
      description: 'Asks in one round for a name, a generated greeting and the roots (three keys).',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      if (!ctx.listRoots) throw errors.capabilityMissing('roots');
      const [name, greeting, roots] = await Promise.all([
        ctx.elicit(askFor('name', 'What is your name?'), { key: 'user_name' }),
        ask(ctx, 'Generate a greeting', 'greeting', 50),
        ctx.listRoots({ key: 'client_roots' }),
      ]);
      return textResult(
        `${samplingText(greeting.content)} ${answerOf(name, 'name')} (roots: ${rootsOf(roots)})`,
      );
    },
  },
  {
    descriptor: {
      name: 'test_input_required_result_multi_round',
      description: 'Asks for a name (key step1), then for a favourite colour (key step2), one round each.',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      const name = await ctx.elicit(askFor('name', 'Step 1: What is your name?'), { key: 'step1' });
      const color = await ctx.elicit(askFor('color', 'Step 2: What is your favorite color?'), {
        key: 'step2',
      });
      return textResult(`${answerOf(name, 'name')} likes ${answerOf(color, 'color')}`);
    },
  },
  {
    descriptor: {
      name: 'test_input_required_result_tampered_state',
      description: 'Asks for a confirmation; a retry whose requestState was altered is refused.',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      const answer = await ctx.elicit(askToConfirm('ok', 'Please confirm'), { key: 'confirm' });
      return textResult(`confirmed: ${answer.action}`);
    },
  },
  {
    descriptor: {
      name: 'test_input_required_result_capabilities',
      description:
        'Asks for a name and a model completion, each only when the client declared the capability for it.',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      const optional = <T>(asked: () => Promise<T>) =>
        asked().catch((error: unknown) => {
          if (isCapabilityMissing(error)) return undefined;
          throw error;
        });
      const [name, completion] = await Promise.all([
        optional(() => ctx.elicit(askFor('name', 'What is your name?'), { key: 'user_name' })),
        optional(() => ask(ctx, 'Say hello', 'hello', 50)),
      ]);
      return textResult(
        `name: ${name ? answerOf(name, 'name') : '(not asked)'}; model: ${completion ? samplingText(completion.content) : '(not asked)'}`,
      );
    },
  },
  modelTool(
    'test_missing_capability',
    "Needs the client's sampling capability; refused when the request does not declare it.",
    'Say something',
    'needs_sampling',
  ),
  {
    descriptor: {
      name: 'test_streaming_elicitation',
      description:
        'Logs and reports progress, then asks the user a question: the stream carries only notifications and the answer.',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      await ctx.log('info', 'asking the user');
      await ctx.reportProgress(1, 2, 'asking the user');
      const answer = await ctx.elicit(askFor('name', 'What is your name?'), { key: 'user_name' });
      return textResult(`Hello, ${answerOf(answer, 'name')}!`);
    },
  },
  {
    descriptor: {
      name: 'test_logging_tool',
      description:
        'Logs at every level while it runs; a 2026-07-28 request without a log level hears none of it.',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      for (const level of ['debug', 'info', 'warning', 'error'] as const) {
        await ctx.log(level, `a ${level} message`);
        await sleep(5, undefined, { signal: ctx.signal });
      }
      return textResult('Logged at debug, info, warning and error.');
    },
  },
];
