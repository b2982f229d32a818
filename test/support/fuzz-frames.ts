// Random JSON-RPC traffic for the frame fuzzers: requests to real and made-up methods with random ids and
// params (with or without the 2026-07-28 `_meta` envelope), notifications, responses, batches, truncated
// JSON, garbage and huge lines. A "tracked" request has a fresh, valid id the fuzzer expects an answer to.
import fc from 'fast-check';
import { modernMeta } from './modern-wire.js';

export type Era = 'legacy' | 'modern';

/** The methods a server of either era knows, plus a few that reach every plugin's code. */
export const REAL_METHODS = [
  'initialize',
  'ping',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'server/discover',
  'logging/setLevel',
  'tasks/get',
  'tasks/list',
  'tasks/cancel',
  'notifications/initialized',
  'notifications/cancelled',
  'notifications/roots/list_changed',
] as const;
// Left out: subscriptions/listen, which by design answers only when the stream ends (its acknowledgement is a
// notification), so "every request gets an answer" does not hold for it.

const TOOL_NAMES = [
  'workspace__read_file',
  'workspace__grep',
  'workspace__glob',
  'workspace__list_directory',
];

const smallJson = fc.jsonValue({ maxDepth: 3 });

/** An id of any JSON shape, and now and then one a run already used. */
export const anyId: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 12 }),
  fc.constant(null),
  fc.constantFrom(1, 2, 'dup', 0, -1, ''),
  fc.double(),
  fc.boolean(),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  fc.array(fc.integer(), { maxLength: 2 }),
);

const method = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...REAL_METHODS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('rpc.discover', '__proto__', 'constructor', 'tools/', '/', 'TOOLS/LIST'),
  },
);

/** Params shaped like what the method takes, or of any shape. */
function paramsFor(name: string): fc.Arbitrary<unknown> {
  const shaped: Record<string, fc.Arbitrary<unknown>> = {
    'tools/call': fc.record(
      {
        name: fc.oneof(fc.constantFrom(...TOOL_NAMES), fc.string({ maxLength: 20 })),
        arguments: fc.oneof(
          fc.record({ path: fc.constantFrom('a.txt', '../x', 'src', '/proc/self/environ', 'link-environ') }),
          fc.record({
            pattern: fc.constantFrom('.', 'alpha', '(a+)+$', '['),
            path: fc.constantFrom('.', 'src'),
          }),
          smallJson,
        ),
      },
      { requiredKeys: ['name'] },
    ),
    'resources/read': fc.record({
      uri: fc.oneof(
        fc.constantFrom(
          'workspace://file/a.txt',
          'workspace://file/..%2F..%2Fetc%2Fpasswd',
          'gh://x',
          'file:///etc/passwd',
        ),
        fc.string({ maxLength: 30 }),
        smallJson,
      ),
    }),
    'prompts/get': fc.record({ name: fc.string({ maxLength: 20 }), arguments: smallJson }),
    'completion/complete': fc.record({
      ref: fc.oneof(
        fc.record({
          type: fc.constant('ref/resource'),
          uri: fc.constantFrom('workspace://file/{path}', 'x://{y}'),
        }),
        fc.record({ type: fc.constantFrom('ref/prompt', 'ref/other'), name: fc.string({ maxLength: 10 }) }),
        smallJson,
      ),
      argument: fc.record({ name: fc.constantFrom('path', 'x'), value: fc.string({ maxLength: 20 }) }),
    }),
    'logging/setLevel': fc.record({
      level: fc.oneof(fc.constantFrom('debug', 'info', 'error', 'emergency'), fc.string({ maxLength: 8 })),
    }),
    'notifications/cancelled': fc.record({ requestId: anyId, reason: fc.string({ maxLength: 10 }) }),
    initialize: fc.record({
      protocolVersion: fc.constantFrom('2025-11-25', '2025-06-18', '2024-11-05', '2026-07-28', '1999-01-01'),
      capabilities: fc.oneof(fc.constant({}), smallJson),
      clientInfo: fc.oneof(fc.constant({ name: 'fuzz', version: '1' }), smallJson),
    }),
  };
  // Own keys only: a method named "constructor" must not find Object's.
  const shape = Object.hasOwn(shaped, name) ? shaped[name] : undefined;
  return shape ? fc.oneof({ weight: 3, arbitrary: shape }, { weight: 1, arbitrary: smallJson }) : smallJson;
}

/** Adds the modern envelope to object params (mostly in the modern era, now and then in the legacy one). */
function withEnvelope(params: unknown, era: Era): fc.Arbitrary<unknown> {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return fc.constant(params);
  const object = params as Record<string, unknown>;
  return fc
    .oneof(
      { weight: era === 'modern' ? 8 : 1, arbitrary: fc.constant(modernMeta()) },
      { weight: era === 'modern' ? 1 : 8, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: smallJson },
    )
    .map((meta) => (meta === undefined ? object : { ...object, _meta: meta }));
}

/** A request (or notification, without id) as an object: a real or random method with params to match. */
export function requestObject(era: Era, id: fc.Arbitrary<unknown> | undefined): fc.Arbitrary<object> {
  return method.chain((name) =>
    fc
      .tuple(
        paramsFor(name).chain((params) => withEnvelope(params, era)),
        fc.boolean(),
        id ?? fc.constant(undefined),
      )
      .map(([params, withParams, requestId]) => ({
        jsonrpc: '2.0',
        ...(id === undefined ? {} : { id: requestId }),
        method: name,
        ...(withParams || name === 'tools/call' ? { params } : {}),
      })),
  );
}

export interface Frame {
  line: string;
  /** Set when the line is a valid request with a fresh id: the server must answer it. */
  tracked?: string | number;
}

/** Lines for one run; `fresh(i)` gives the i-th tracked id, unique over the whole suite. */
export function frames(era: Era, fresh: () => string | number): fc.Arbitrary<Frame[]> {
  const tracked: fc.Arbitrary<Frame> = fc.noShrink(
    fc.constant(null).chain(() => {
      const id = fresh();
      return requestObject(era, fc.constant(id)).map((request) => ({
        line: JSON.stringify(request),
        tracked: id,
      }));
    }),
  );
  const frame: fc.Arbitrary<Frame> = fc.oneof(
    { weight: 6, arbitrary: tracked },
    { weight: 3, arbitrary: requestObject(era, anyId).map((r) => ({ line: JSON.stringify(r) })) },
    { weight: 1, arbitrary: requestObject(era, undefined).map((r) => ({ line: JSON.stringify(r) })) },
    {
      weight: 1,
      arbitrary: fc
        .record({ id: anyId, result: smallJson, error: smallJson }, { requiredKeys: ['id'] })
        .map((r) => ({ line: JSON.stringify({ jsonrpc: '2.0', ...r }) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .array(requestObject(era, anyId), { maxLength: 3 })
        .map((batch) => ({ line: JSON.stringify(batch) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({ jsonrpc: smallJson, id: anyId, method: smallJson, params: smallJson }, { requiredKeys: [] })
        .map((r) => ({ line: JSON.stringify(r) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(requestObject(era, anyId), fc.double({ min: 0, max: 1, noNaN: true }))
        .map(([r, cut]) => {
          const text = JSON.stringify(r);
          return { line: text.slice(0, Math.floor(text.length * cut)) };
        }),
    },
    {
      weight: 1,
      arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => ({ line: JSON.stringify(v) ?? 'null' })),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((s) => ({ line: s })) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }).map((s) => ({ line: s })) },
    {
      // A huge string argument (bounded well under the 4 MiB line limit, which bad-input.test.ts covers).
      weight: 1,
      arbitrary: fc.noShrink(
        fc
          .tuple(
            fc.integer({ min: 50_000, max: 300_000 }),
            fc.constantFrom('workspace__read_file', 'workspace__grep'),
          )
          .map(([size, tool]) => {
            const id = fresh();
            const params = { name: tool, arguments: { path: 'a'.repeat(size), pattern: 'b'.repeat(size) } };
            const meta = era === 'modern' ? { _meta: modernMeta() } : {};
            return {
              line: JSON.stringify({
                jsonrpc: '2.0',
                id,
                method: 'tools/call',
                params: { ...params, ...meta },
              }),
              tracked: id,
            };
          }),
      ),
    },
  );
  return fc.array(frame, { minLength: 1, maxLength: 8 });
}
