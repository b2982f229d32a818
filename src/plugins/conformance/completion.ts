// completion/complete for the fixture prompts' arguments and the data template's {id}: prefix matches from fixed lists.
import { type CompletionRequest, type CompletionResult, errors } from '../../contract/index.js';
import { PROMPTS } from './prompts.js';
import { DATA_TEMPLATE } from './resources.js';

type Candidates = Readonly<Record<string, readonly string[]>>;

const PROMPT_CANDIDATES: Readonly<Record<string, Candidates>> = {
  test_prompt_with_arguments: {
    arg1: ['hello', 'help', 'test', 'testValue1'],
    arg2: ['world', 'word', 'testValue2'],
  },
  test_prompt_with_embedded_resource: {
    resourceUri: ['test://static-text', 'test://static-binary', 'test://watched-resource'],
  },
};

const TEMPLATE_CANDIDATES: Readonly<Record<string, Candidates>> = {
  [DATA_TEMPLATE]: { id: ['1', '2', '3', '42', '123'] },
};

/** A known prompt or template with no list for the argument gets no values, not an error. */
export function complete(req: CompletionRequest): CompletionResult {
  const candidates = candidatesFor(req.ref);
  const typed = req.argument.value.toLowerCase();
  const values = (candidates[req.argument.name] ?? []).filter((v) => v.toLowerCase().startsWith(typed));
  return { values, total: values.length, hasMore: false };
}

function candidatesFor(ref: CompletionRequest['ref']): Candidates {
  if (ref.type === 'ref/prompt') {
    if (!PROMPTS.some((p) => p.name === ref.name)) throw errors.promptNotFound(ref.name);
    return PROMPT_CANDIDATES[ref.name] ?? {};
  }
  const candidates = TEMPLATE_CANDIDATES[ref.uri];
  if (!candidates)
    throw errors.completionRefUnsupported(
      `resource ${JSON.stringify(ref.uri)}: it is not a template of this plugin`,
    );
  return candidates;
}
