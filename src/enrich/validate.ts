// Checks a call's arguments against the tool's input schema and says, in one line per problem, what to fix.
import { Ajv as AjvDraft07, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { errors } from '../host/index.js';

export interface CheckOptions {
  /** The name the agent sees for a parameter (after renames); default the name itself. */
  agentName?: (param: string) => string;
  /** Parameters the agent may send, listed when it sends an unknown one; default the schema's. */
  agentParams?: readonly string[];
}

export interface ArgumentValidator {
  /** Throws E_INVALID_ARGUMENTS naming each bad parameter, what was given and what is allowed. */
  check(
    published: string,
    schema: Record<string, unknown>,
    args: Record<string, unknown>,
    options?: CheckOptions,
  ): void;
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

/** The dotted path of an instance pointer, its first segment in the agent's name. */
function pathOf(pointer: string, agentName: (param: string) => string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (parts[0] !== undefined) parts[0] = agentName(parts[0]);
  return parts.join('.');
}

function describeIssue(
  issue: ErrorObject,
  args: Record<string, unknown>,
  schema: Record<string, unknown>,
  options: CheckOptions,
): string {
  const agentName = options.agentName ?? ((param: string) => param);
  const where = pathOf(issue.instancePath, agentName);
  const param = where ? `parameter "${where}"` : 'arguments';
  const params = issue.params as Record<string, unknown>;
  const child = (name: unknown) => (where ? `${where}.${String(name)}` : agentName(String(name)));
  switch (issue.keyword) {
    case 'required':
      return `missing required parameter "${child(params.missingProperty)}"`;
    case 'additionalProperties': {
      const allowed = where
        ? []
        : (options.agentParams ??
          Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {}));
      return `unknown parameter "${child(params.additionalProperty)}"${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}`;
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
  const problemsWith = (
    published: string,
    schema: Record<string, unknown>,
    args: Record<string, unknown>,
    options: CheckOptions,
  ): string[] => {
    const validate = compile(published, schema);
    if (!validate || validate(args)) return [];
    return [...new Set((validate.errors ?? []).map((issue) => describeIssue(issue, args, schema, options)))];
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
    check(published, schema, args, options = {}) {
      const lines = problemsWith(published, schema, args, options);
      if (lines.length) throw errors.invalidArguments(`tool "${published}"`, lines.join('; '));
    },
    checkParam(toolSchema, name, value) {
      const made = paramOnlySchema(toolSchema, name);
      const key = JSON.stringify(made);
      let schema = paramSchemas.get(key);
      if (!schema) {
        if (paramSchemas.size >= 1000) paramSchemas.clear();
        schema = made;
        paramSchemas.set(key, schema);
      }
      const lines = problemsWith('(config value)', schema, { [name]: value }, {});
      return lines.length ? lines.join('; ') : undefined;
    },
  };
}
