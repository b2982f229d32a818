// The completion cap: at most 100 values, with hasMore and total telling what was left out.
import type { CompletionResult } from '../contract/index.js';

export const MAX_COMPLETION_VALUES = 100;

export function capCompletion(completion: CompletionResult): CompletionResult {
  const values = completion.values.filter((v): v is string => typeof v === 'string');
  const total = Math.max(completion.total ?? values.length, values.length);
  if (values.length <= MAX_COMPLETION_VALUES) {
    return { values, total, hasMore: completion.hasMore ?? total > values.length };
  }
  return { values: values.slice(0, MAX_COMPLETION_VALUES), total, hasMore: true };
}
