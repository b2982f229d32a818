// Turns zod validation issues into one line a person can act on, naming each offending key.
import type * as z from 'zod';

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');
}
