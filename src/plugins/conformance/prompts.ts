// The fixture prompts: plain, with arguments, with an embedded resource, and with an image.
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import { errors, type RequestContext } from '../../contract/index.js';
import { answerOf, askFor } from './forms.js';
import { RED_PIXEL_PNG_BASE64 } from './media.js';

export const PROMPTS: readonly Prompt[] = [
  {
    name: 'test_simple_prompt',
    title: 'Simple Test Prompt',
    description: 'One user message, no arguments.',
  },
  {
    name: 'test_prompt_with_arguments',
    title: 'Prompt With Arguments',
    description: 'One user message that quotes both arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  {
    name: 'test_prompt_with_embedded_resource',
    title: 'Prompt With Embedded Resource',
    description: 'A user message embedding a text resource under the given URI, then a text message.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  {
    name: 'test_prompt_with_image',
    title: 'Prompt With Image',
    description: 'A user message with a 1×1 red PNG, then a text message.',
  },
  {
    name: 'test_input_required_result_prompt',
    title: 'Prompt That Asks For Context',
    description: 'Asks the user what context to use (key user_context), then builds the message from it.',
  },
];

/** The prompt that asks the client for input before it can answer. */
async function promptWithInput(ctx: RequestContext): Promise<GetPromptResult> {
  const answer = await ctx.elicit(askFor('context', 'What context should the prompt use?'), {
    key: 'user_context',
  });
  const context = answerOf(answer, 'context');
  return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }] };
}

export async function getPrompt(
  name: string,
  args: Record<string, string> | undefined,
  ctx: RequestContext,
): Promise<GetPromptResult> {
  switch (name) {
    case 'test_input_required_result_prompt':
      return promptWithInput(ctx);
    case 'test_simple_prompt':
      return {
        messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
      };
    case 'test_prompt_with_arguments': {
      const arg1 = requireArgument(name, args, 'arg1');
      const arg2 = requireArgument(name, args, 'arg2');
      return {
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
          },
        ],
      };
    }
    case 'test_prompt_with_embedded_resource': {
      const uri = requireArgument(name, args, 'resourceUri');
      return {
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
            },
          },
          { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
        ],
      };
    }
    case 'test_prompt_with_image':
      return {
        messages: [
          { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG_BASE64, mimeType: 'image/png' } },
          { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
        ],
      };
    default:
      throw errors.promptNotFound(name);
  }
}

function requireArgument(prompt: string, args: Record<string, string> | undefined, name: string): string {
  const value = args?.[name];
  if (value === undefined) {
    throw errors.invalidArguments(
      `prompt ${JSON.stringify(prompt)}`,
      `missing required argument ${JSON.stringify(name)}`,
    );
  }
  return value;
}
