// Tools that talk back to the client during the call: log messages, progress, sampling, and an SSE stream close.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  NO_ARGUMENTS,
  failedUnlessAborted,
  requireString,
  textResult,
  type FixtureTool,
} from './fixture-tool.js';

/** The pause between two notifications, so the client sees them arrive one by one. Default 50. */
const STEP_MS = 50;

export const SESSION_TOOLS: readonly FixtureTool[] = [
  {
    descriptor: {
      name: 'test_tool_with_logging',
      description: 'Sends three info log messages, about 50 ms apart, while it runs.',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      await ctx.log('info', 'Tool execution started');
      await sleep(STEP_MS, undefined, { signal: ctx.signal });
      await ctx.log('info', 'Tool processing data');
      await sleep(STEP_MS, undefined, { signal: ctx.signal });
      await ctx.log('info', 'Tool execution completed');
      return textResult('Tool with logging executed successfully');
    },
  },
  {
    descriptor: {
      name: 'test_tool_with_progress',
      description:
        'Reports progress 0, 50 and 100 of 100, about 50 ms apart (when the call has a progress token).',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      const total = 100;
      for (const [i, progress] of [0, 50, 100].entries()) {
        if (i > 0) await sleep(STEP_MS, undefined, { signal: ctx.signal });
        await ctx.reportProgress(progress, total, `Completed ${progress} of ${total}`);
      }
      return textResult(`Progress reported: 0, 50, 100 of ${total}`);
    },
  },
  {
    descriptor: {
      name: 'test_sampling',
      description:
        'Asks the client for an LLM completion of the prompt (sampling/createMessage) and returns the answer.',
      inputSchema: {
        type: 'object',
        properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
        required: ['prompt'],
      },
    },
    run: async (args, ctx) => {
      const prompt = requireString(args, 'prompt', 'test_sampling');
      try {
        const result = await ctx.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 100,
        });
        const reply =
          result.content.type === 'text' ? result.content.text : `[${result.content.type} content]`;
        return textResult(`LLM response: ${reply}`);
      } catch (error) {
        return failedUnlessAborted(ctx, error, 'sampling/createMessage');
      }
    },
  },
  {
    descriptor: {
      name: 'test_reconnection',
      description:
        'Closes its SSE stream mid-call (SEP-1699), then answers about 100 ms later, so the client must reconnect with Last-Event-ID.',
      inputSchema: NO_ARGUMENTS,
    },
    run: async (_args, ctx) => {
      // Present only where the transport can resume streams (an event store, protocol >= 2025-11-25).
      const closeStream = ctx.closeSSEStream;
      closeStream?.();
      await sleep(2 * STEP_MS, undefined, { signal: ctx.signal });
      return textResult(
        closeStream
          ? 'Reconnection test completed: the stream was closed mid-call and this result was delivered after it.'
          : 'Reconnection test completed without closing the stream: this transport cannot resume streams.',
      );
    },
  },
];
