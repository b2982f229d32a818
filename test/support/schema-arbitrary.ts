// fast-check arbitraries from a tool's inputSchema, for the subset the built-in tools use (object, properties,
// required, additionalProperties, type or a list of types, enum, minimum/maximum, minLength/maxLength, items):
// arguments the schema accepts, and arguments it must refuse, each with the one reason it must.
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** Strings of every kind a caller might send: plain, unicode, control characters, and now and then long. */
const anyString = (minLength = 0, maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength, maxLength }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength, maxLength }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('a.txt', 'src', '.', '*', '**/*.ts', '#1', '42', 'open', '', '\u0000', '(a+)+$', '[')
        .filter((s) => s.length >= minLength && s.length <= maxLength),
    },
  );

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties) return ['object'];
  return ['string', 'number', 'boolean', 'null'];
}

function validForType(type: string, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return anyString(schema.minLength ?? 0, Math.min(schema.maxLength ?? 60, (schema.minLength ?? 0) + 60));
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1e6, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1e6, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validValue(schema.items ?? {}, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, (schema.minItems ?? 0) + 4),
      });
    case 'object':
      return validObject(schema, depth + 1);
    default:
      return fc.constant(null);
  }
}

/** A value `schema` accepts. */
export function validValue(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if (depth > 3)
    return fc.constant(typesOf(schema).includes('string') ? 'x'.repeat(schema.minLength ?? 0) : 0);
  return fc.oneof(...typesOf(schema).map((type) => validForType(type, schema, depth)));
}

/** An object `schema` accepts: every required key, any subset of the optional ones. */
export function validObject(schema: JsonSchema, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, sub] of Object.entries(properties)) model[name] = validValue(sub, depth);
  return fc.record(model, { requiredKeys: Object.keys(properties).filter((name) => required.has(name)) });
}

/** A JSON value of none of `types` (numbers count as integers too, integers only as themselves). */
function valueOfNoneOf(types: readonly string[]): fc.Arbitrary<unknown> {
  const candidates: fc.Arbitrary<unknown>[] = [];
  if (!types.includes('string')) candidates.push(fc.string({ maxLength: 20 }));
  if (!types.includes('number') && !types.includes('integer'))
    candidates.push(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })));
  if (!types.includes('number') && types.includes('integer'))
    candidates.push(fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((n) => !Number.isInteger(n)));
  if (!types.includes('boolean')) candidates.push(fc.boolean());
  if (!types.includes('null')) candidates.push(fc.constant(null));
  if (!types.includes('array')) candidates.push(fc.array(fc.integer(), { maxLength: 3 }));
  if (!types.includes('object')) candidates.push(fc.dictionary(fc.string({ maxLength: 5 }), fc.integer()));
  return fc.oneof(...candidates);
}

/** Values `schema` refuses, for one property; undefined when it accepts anything. */
function invalidValue(schema: JsonSchema): fc.Arbitrary<unknown> | undefined {
  const options: fc.Arbitrary<unknown>[] = [];
  if (schema.enum && schema.enum.length > 0) {
    const allowed = new Set(schema.enum.map((v) => JSON.stringify(v)));
    options.push(fc.string({ maxLength: 12 }).filter((s) => !allowed.has(JSON.stringify(s))));
  }
  if (schema.type !== undefined) options.push(valueOfNoneOf(typesOf(schema)));
  const types = typesOf(schema);
  if (types.includes('integer') || types.includes('number')) {
    if (schema.minimum !== undefined)
      options.push(fc.integer({ min: -1e9, max: Math.ceil(schema.minimum) - 1 }));
    if (schema.maximum !== undefined && schema.maximum < 1e9)
      options.push(fc.integer({ min: Math.floor(schema.maximum) + 1, max: 2e9 }));
  }
  if (types.length === 1 && types[0] === 'string') {
    if (schema.maxLength !== undefined)
      options.push(
        fc.integer({ min: schema.maxLength + 1, max: schema.maxLength + 300 }).map((n) => 'z'.repeat(n)),
      );
    if (schema.minLength !== undefined && schema.minLength > 0) options.push(fc.constant(''));
  }
  return options.length === 0 ? undefined : fc.oneof(...options);
}

export interface InvalidArguments {
  args: Record<string, unknown>;
  /** Why the schema refuses them, for the failure message. */
  why: string;
}

/** Arguments `schema` refuses: a valid object with one required key dropped, one unknown key, or one bad value. */
export function invalidObject(schema: JsonSchema): fc.Arbitrary<InvalidArguments> | undefined {
  const properties = schema.properties ?? {};
  const mutations: fc.Arbitrary<InvalidArguments>[] = [];
  for (const name of schema.required ?? [])
    mutations.push(
      validObject(schema).map((args) => {
        const { [name]: _dropped, ...rest } = args;
        return { args: rest, why: `required "${name}" left out` };
      }),
    );
  if (schema.additionalProperties === false)
    mutations.push(
      fc
        .tuple(
          validObject(schema),
          fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !(k in properties) && k !== '__proto__'),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map(([args, key, value]) => ({ args: { ...args, [key]: value }, why: `unknown key "${key}"` })),
    );
  for (const [name, sub] of Object.entries(properties)) {
    const bad = invalidValue(sub);
    if (bad)
      mutations.push(
        fc.tuple(validObject(schema), bad).map(([args, value]) => ({
          args: { ...args, [name]: value },
          why: `"${name}" set to ${JSON.stringify(value)?.slice(0, 60)}`,
        })),
      );
  }
  return mutations.length === 0 ? undefined : fc.oneof(...mutations);
}
