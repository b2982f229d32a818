// The small elicitation forms the fixtures ask with, and how they read the answers: one place, so every tool asks
// and reads the same way.
import type { ElicitResult, ListRootsResult } from '@modelcontextprotocol/server';

/** A form asking for one string field. */
export function askFor(field: string, message: string) {
  return {
    message,
    requestedSchema: {
      type: 'object' as const,
      properties: { [field]: { type: 'string' as const } },
      required: [field],
    },
  };
}

/** A form asking for one boolean field, a yes or no. */
export function askToConfirm(field: string, message: string) {
  return {
    message,
    requestedSchema: {
      type: 'object' as const,
      properties: { [field]: { type: 'boolean' as const } },
      required: [field],
    },
  };
}

/** The accepted value of one field, or how the user answered instead. */
export function answerOf(result: ElicitResult, field: string): string {
  if (result.action !== 'accept') return `(${result.action})`;
  return String(result.content?.[field] ?? '');
}

/** Whether the user accepted and said yes in `field`. */
export function confirmedIn(result: ElicitResult, field: string): boolean {
  return result.action === 'accept' && result.content?.[field] === true;
}

export function rootsOf(result: ListRootsResult): string {
  return result.roots.map((root) => root.uri).join(', ') || '(none)';
}
