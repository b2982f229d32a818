// Tools that change the plugin's own catalog, so the suite can watch list_changed reach listen streams: each call
// toggles one extra tool or prompt and tells the host.
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/server';
import type { CatalogKind } from '../../contract/index.js';
import { NO_ARGUMENTS, textResult, type FixtureTool } from './fixture-tool.js';

export interface CatalogChanges {
  tools: readonly FixtureTool[];
  /** The tools that come and go (listed after the fixed ones). */
  extraTools(): FixtureTool[];
  extraPrompts(): Prompt[];
  /** The extra prompt's messages while it is listed. */
  getExtraPrompt(name: string): GetPromptResult | undefined;
}

export function createCatalogChanges(notifyListChanged: (kind: CatalogKind) => void): CatalogChanges {
  let toolShown = false;
  let promptShown = false;
  const dynamicTool: FixtureTool = {
    descriptor: {
      name: 'test_dynamic_tool',
      description: 'Listed only while test_trigger_tool_change has been called an odd number of times.',
      inputSchema: NO_ARGUMENTS,
    },
    run: async () => textResult('The dynamic tool is here.'),
  };
  const dynamicPrompt: Prompt = {
    name: 'test_dynamic_prompt',
    description: 'Listed only while test_trigger_prompt_change has been called an odd number of times.',
  };
  return {
    tools: [
      {
        descriptor: {
          name: 'test_trigger_tool_change',
          description: 'Adds or removes test_dynamic_tool, so the tool list changes.',
          inputSchema: NO_ARGUMENTS,
        },
        run: async () => {
          toolShown = !toolShown;
          notifyListChanged('tools');
          return textResult(`test_dynamic_tool is ${toolShown ? 'listed' : 'gone'}.`);
        },
      },
      {
        descriptor: {
          name: 'test_trigger_prompt_change',
          description: 'Adds or removes test_dynamic_prompt, so the prompt list changes.',
          inputSchema: NO_ARGUMENTS,
        },
        run: async () => {
          promptShown = !promptShown;
          notifyListChanged('prompts');
          return textResult(`test_dynamic_prompt is ${promptShown ? 'listed' : 'gone'}.`);
        },
      },
    ],
    extraTools: () => (toolShown ? [dynamicTool] : []),
    extraPrompts: () => (promptShown ? [dynamicPrompt] : []),
    getExtraPrompt: (name) =>
      promptShown && name === dynamicPrompt.name
        ? { messages: [{ role: 'user', content: { type: 'text', text: 'The dynamic prompt is here.' } }] }
        : undefined,
  };
}
