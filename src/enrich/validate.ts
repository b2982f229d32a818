// Checks a call's arguments against the tool's input schema and says, in one line per problem, what to fix.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { errors } from '../host/index.js';

export interface ArgumentValidator {
  /** Throws E_INVALID_ARGUMENTS naming each bad parameter, what was given and what is allowed. */
  check(published: string, schema: Record<string, unknown>, args: Record<string, unknown>): void;
  /** Compiles a first schema, which costs ajv ~70 ms of one-time code generation, so no call pays it. */
  warmUp(): void;
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) return String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function valueAt(args: Record<string, unknown>, pointer: string): unknown {
  let current: unknown = args;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    current = (current as Record<string, unknown> | undefined)?.[key];
  }
  return current;
}

function describeIssue(
  issue: ErrorObject,
  args: Record<string, unknown>,
  schema: Record<string, unknown>,
): string {
  const where = issue.instancePath ? issue.instancePath.slice(1).replaceAll('/', '.') : '';
  const param = where ? `parameter "${where}"` : 'arguments';
  const params = issue.params as Record<string, unknown>;
  switch (issue.keyword) {
    case 'required':
      return `missing required parameter "${[where, params.missingProperty].filter(Boolean).join('.')}"`;
    case 'additionalProperties': {
      const allowed = where
        ? []
        : Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
      const name = [where, params.additionalProperty].filter(Boolean).join('.');
      return `unknown parameter "${name}"${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}`;
    }
    case 'enum':
      return `${param} is ${describeValue(valueAt(args, issue.instancePath))}; allowed: ${(params.allowedValues as unknown[]).map(describeValue).join(', ')}`;
    default:
      return `${param} ${issue.message ?? 'is invalid'} (got ${describeValue(valueAt(args, issue.instancePath))})`;
  }
}

/** Compiled validators are cached per schema object; a schema ajv cannot compile is not enforced. */
export function createArgumentValidator(
  onUncompilable?: (tool: string, reason: string) => void,
): ArgumentValidator {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  const compiled = new WeakMap<object, ValidateFunction | null>();

  const compile = (published: string, schema: Record<string, unknown>): ValidateFunction | null => {
    const cached = compiled.get(schema);
    if (cached !== undefined) return cached;
    let validate: ValidateFunction | null = null;
    try {
      // Tools declare various drafts; their shared core validates the same under 2020-12.
      const { $schema: _draft, $id: _id, ...rest } = schema;
      validate = ajv.compile(rest);
    } catch (error) {
      onUncompilable?.(published, (error as Error).message);
    }
    compiled.set(schema, validate);
    return validate;
  };

  return {
    warmUp() {
      compile('(warm-up)', {
        type: 'object',
        properties: { value: { type: 'string' } },
        required: ['value'],
      });
    },
    check(published, schema, args) {
      const validate = compile(published, schema);
      if (!validate || validate(args)) return;
      const lines = [...new Set((validate.errors ?? []).map((issue) => describeIssue(issue, args, schema)))];
      throw errors.invalidArguments(`tool "${published}"`, lines.join('; '));
    },
  };
}
