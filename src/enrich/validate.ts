// Checks a call's arguments against the tool's input schema and says, in one line per problem, what to fix.
import { Ajv as AjvDraft07, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { errors } from '../contract/index.js';

/** One problem with a call's arguments: the top-level parameter it is about (if any) and a line saying it. */
export interface ArgumentIssue {
  param: string | undefined;
  text: string;
}

export interface ArgumentValidator {
  /** Throws E_INVALID_ARGUMENTS naming each bad parameter, what was given and what is allowed. */
  check(published: string, schema: Record<string, unknown>, args: Record<string, unknown>): void;
  /** What is wrong with `args` for this schema, one issue per problem; empty when they fit. */
  issues(
    published: string,
    schema: Record<string, unknown>,
    args: Record<string, unknown>,
  ): readonly ArgumentIssue[];
  /**
   * What is wrong with `value` as parameter `name` of a tool with this input schema (one line per
   * problem), or undefined when it fits. For values the config fixes (pins, defaults).
   */
  checkParam(toolSchema: Record<string, unknown>, name: string, value: unknown): string | undefined;
  /** Compiles a first schema, which costs ajv ~70 ms of one-time code generation, so no call pays it. */
  warmUp(): void;
}

/** A schema of just one parameter, keeping what a $ref in it may point at. */
function paramOnlySchema(toolSchema: Record<string, unknown>, name: string): Record<string, unknown> {
  const properties = (toolSchema.properties ?? {}) as Record<string, unknown>;
  const { $schema, $defs, definitions } = toolSchema;
  return {
    ...($schema === undefined ? {} : { $schema }),
    type: 'object',
    properties: { [name]: properties[name] ?? {} },
    ...($defs === undefined ? {} : { $defs }),
    ...(definitions === undefined ? {} : { definitions }),
  };
}

type Dialect = 'draft-07' | '2019-09' | '2020-12';

/**
 * Picks the validator by `$schema`. MCP's default dialect is 2020-12; drafts 04 to 07 share draft-07's
 * core closely enough that ajv's draft-07 engine checks them (draft-04's boolean exclusiveMinimum aside).
 */
export function dialectOf(schema: Record<string, unknown>): Dialect {
  const uri = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(uri)) return 'draft-07';
  if (uri.includes('2019-09')) return '2019-09';
  return '2020-12';
}

type Redact = (text: string) => string;

/** What a passing check returns: one shared empty list, so the checks on every call allocate nothing. */
const NO_ISSUES: readonly ArgumentIssue[] = Object.freeze([]);

/** Redacted before it is cut short: a secret cut in two would no longer be found in the message. */
function describeValue(value: unknown, redact: Redact): string {
  const text = redact(JSON.stringify(value) ?? String(value));
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

/** The segments of an instance pointer, unescaped. */
function partsOf(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function describeIssue(
  issue: ErrorObject,
  args: Record<string, unknown>,
  schema: Record<string, unknown>,
  redact: Redact,
): ArgumentIssue {
  const parts = partsOf(issue.instancePath);
  const where = parts.join('.');
  const param = where ? `parameter "${where}"` : 'arguments';
  const params = issue.params as Record<string, unknown>;
  const child = (name: unknown) => (where ? `${where}.${String(name)}` : String(name));
  // At the top level, `required` and `additionalProperties` are about the parameter they name.
  const named = params.missingProperty ?? params.additionalProperty;
  const top = parts[0] ?? (typeof named === 'string' ? named : undefined);
  const value = () => describeValue(valueAt(args, issue.instancePath), redact);
  switch (issue.keyword) {
    case 'required':
      return { param: top, text: `missing required parameter "${child(params.missingProperty)}"` };
    case 'additionalProperties': {
      const allowed = where
        ? []
        : Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
      const text = `unknown parameter "${child(params.additionalProperty)}"${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}`;
      return { param: top, text };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((entry) => describeValue(entry, redact));
      return { param: top, text: `${param} is ${value()}; allowed: ${allowed.join(', ')}` };
    }
    default:
      return { param: top, text: `${param} ${issue.message ?? 'is invalid'} (got ${value()})` };
  }
}

/**
 * Compiled validators are cached per schema object; a schema ajv cannot compile is not enforced. `redact`
 * (default none) hides secrets in the values that messages quote.
 */
export function createArgumentValidator(
  onUncompilable?: (tool: string, reason: string) => void,
  redact: Redact = (text) => text,
): ArgumentValidator {
  const settings = { allErrors: true, strict: false, validateFormats: false } as const;
  type Engine = { compile(schema: object): ValidateFunction; removeSchema(schema: object): unknown };
  const makers: Record<Dialect, () => Engine> = {
    'draft-07': () => new AjvDraft07(settings),
    '2019-09': () => new Ajv2019(settings),
    '2020-12': () => new Ajv2020(settings),
  };
  // Each engine compiles its meta-schemas when made: only the dialects in use pay for it.
  const engines = new Map<Dialect, Engine>();
  const engineFor = (dialect: Dialect): Engine => {
    let engine = engines.get(dialect);
    if (!engine) {
      engine = makers[dialect]();
      engines.set(dialect, engine);
    }
    return engine;
  };
  const compiled = new WeakMap<object, ValidateFunction | null>();
  // Parameter-only schemas are made afresh for every check: keyed by their text, the same one compiles once.
  const paramSchemas = new Map<string, Record<string, unknown>>();
  const issuesWith = (
    published: string,
    schema: Record<string, unknown>,
    args: Record<string, unknown>,
  ): readonly ArgumentIssue[] => {
    const validate = compile(published, schema);
    if (!validate || validate(args)) return NO_ISSUES;
    const found = new Map<string, ArgumentIssue>();
    for (const error of validate.errors ?? []) {
      const issue = describeIssue(error, args, schema, redact);
      if (!found.has(issue.text)) found.set(issue.text, issue);
    }
    return [...found.values()];
  };
  const problemsWith = (
    published: string,
    schema: Record<string, unknown>,
    args: Record<string, unknown>,
  ) => {
    const found = issuesWith(published, schema, args);
    return found.length ? found.map((issue) => issue.text) : [];
  };

  const compile = (published: string, schema: Record<string, unknown>): ValidateFunction | null => {
    const cached = compiled.get(schema);
    if (cached !== undefined) return cached;
    let validate: ValidateFunction | null = null;
    try {
      // The engine already speaks the dialect; dropping $schema and $id spares ajv a meta-schema lookup
      // and a clash between two tools that reuse one $id.
      const { $schema: _dialect, $id: _id, ...rest } = schema;
      const engine = engineFor(dialectOf(schema));
      validate = engine.compile(rest);
      // ajv keeps every schema it compiled in a map of its own; this WeakMap is the cache, so that one
      // would only grow with each rebuild of the enriched list.
      engine.removeSchema(rest);
    } catch (error) {
      onUncompilable?.(published, (error as Error).message);
    }
    compiled.set(schema, validate);
    return validate;
  };

  return {
    warmUp() {
      for (const $schema of [
        'https://json-schema.org/draft/2020-12/schema',
        'http://json-schema.org/draft-07/schema#',
      ]) {
        compile('(warm-up)', {
          $schema,
          type: 'object',
          properties: { value: { type: 'string' } },
          required: ['value'],
        });
      }
    },
    check(published, schema, args) {
      const found = issuesWith(published, schema, args);
      if (found.length === 0) return;
      const lines = found.map((issue) => issue.text);
      throw errors.invalidArguments(`tool "${published}"`, lines.join('; '));
    },
    issues: issuesWith,
    checkParam(toolSchema, name, value) {
      const made = paramOnlySchema(toolSchema, name);
      const key = JSON.stringify(made);
      let schema = paramSchemas.get(key);
      if (!schema) {
        if (paramSchemas.size >= 1000) paramSchemas.clear();
        schema = made;
        paramSchemas.set(key, schema);
      }
      const lines = problemsWith('(config value)', schema, { [name]: value });
      return lines.length ? lines.join('; ') : undefined;
    },
  };
}
