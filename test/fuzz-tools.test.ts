// Fuzz: random arguments for every built-in tool, drawn from its own inputSchema (valid, and invalid for one
// known reason), and random paths against the workspace tools and file resources, all through a real SDK
// client over stdio to the built CLI. Every call gets a success or a clear error, never an internal one;
// nothing from outside the workspace root and no secret ever comes back, on stdout or stderr.
import { type Client, ProtocolError } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ObservedStdioClientTransport,
  START_TIMEOUT_MS,
  newClient,
  textOf,
  withTimeout,
} from './support/cli.js';
import {
  ANSWER_TIMEOUT_MS,
  ESCAPING_LINKS,
  type FuzzRig,
  INTERNAL_ERROR,
  fuzzRuns,
  fuzzSeed,
  leakIn,
  makeFuzzRig,
  unclearToolResult,
} from './support/fuzz.js';
import { type JsonSchema, invalidObject, validObject } from './support/schema-arbitrary.js';

type Outcome =
  | { kind: 'result'; result: Record<string, unknown>; text: string }
  | { kind: 'error'; code: number; message: string };

let rig: FuzzRig;
let client: Client;
let transport: ObservedStdioClientTransport;
let tools: { name: string; inputSchema: JsonSchema }[];

beforeAll(async () => {
  rig = await makeFuzzRig();
  transport = new ObservedStdioClientTransport({
    cwd: rig.dir,
    args: ['serve', '--config', rig.config],
    env: rig.env,
  });
  client = newClient('fuzz-tools');
  await withTimeout(client.connect(transport), START_TIMEOUT_MS, 'the stdio client to initialize');
  tools = (await client.listTools()).tools as typeof tools;
});

afterAll(async () => {
  await client?.close();
  await rig?.remove();
});

/** Runs one request and says how it ended; anything but a result or a JSON-RPC error (a hang, a closed pipe) throws. */
async function settle(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    const result = (await run()) as Record<string, unknown>;
    return { kind: 'result', result, text: JSON.stringify(result) };
  } catch (error) {
    if (error instanceof ProtocolError) return { kind: 'error', code: error.code, message: error.message };
    throw error;
  }
}

const callTool = (name: string, args: Record<string, unknown>) =>
  settle(() => client.callTool({ name, arguments: args }, { timeout: ANSWER_TIMEOUT_MS }));

const readResource = (uri: string) =>
  settle(() => client.readResource({ uri }, { timeout: ANSWER_TIMEOUT_MS }));

/** The property every answer keeps: clear, and holding no secret; returns why not, or undefined. */
function unclear(outcome: Outcome): string | undefined {
  if (outcome.kind === 'error') {
    if (outcome.code === INTERNAL_ERROR) return `JSON-RPC internal error: ${outcome.message}`;
    if (outcome.message.trim() === '') return 'a JSON-RPC error without a message';
    return leakIn(rig, outcome.message);
  }
  return unclearToolResult(outcome.result) ?? leakIn(rig, outcome.text);
}

/** The server is alive, answers, and has printed no secret on stderr. */
async function expectServing(): Promise<void> {
  const read = await client.callTool({ name: 'workspace__read_file', arguments: { path: 'a.txt' } });
  expect(textOf(read)).toContain('alpha line one');
  expect(leakIn(rig, transport.stderrSoFar())).toBeUndefined();
}

describe('fuzz: random arguments for each built-in tool, from its inputSchema', () => {
  it('lists the tools it fuzzes (the workspace and github plugins)', () => {
    const names = tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['workspace__read_file', 'workspace__grep', 'gh__get_issues']),
    );
    expect(names.length).toBeGreaterThan(10);
  });

  it('valid arguments: a success or a clear error result, never an internal one, no secret', async () => {
    const arbitrary = fc
      .constantFrom(...tools)
      .chain((tool) => validObject(tool.inputSchema).map((args) => ({ tool: tool.name, args })));
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ tool, args }) => {
        const outcome = await callTool(tool, args);
        expect(unclear(outcome), `${tool} ${JSON.stringify(args)}`).toBeUndefined();
      }),
      { seed: fuzzSeed(170_001), numRuns: fuzzRuns(300) },
    );
    await expectServing();
  });

  it('invalid arguments: refused (isError or -32602) with a message, never run, never internal', async () => {
    const candidates = tools.flatMap((tool) => {
      const invalid = invalidObject(tool.inputSchema);
      return invalid ? [invalid.map((bad) => ({ tool: tool.name, ...bad }))] : [];
    });
    await fc.assert(
      fc.asyncProperty(fc.oneof(...candidates), async ({ tool, args, why }) => {
        const outcome = await callTool(tool, args);
        const label = `${tool} (${why}) ${JSON.stringify(args).slice(0, 300)}`;
        expect(unclear(outcome), label).toBeUndefined();
        if (outcome.kind === 'error') expect(outcome.code, label).toBe(-32602);
        else
          expect(outcome.result.isError, `${label} was accepted: ${outcome.text.slice(0, 300)}`).toBe(true);
      }),
      { seed: fuzzSeed(170_002), numRuns: fuzzRuns(300) },
    );
    await expectServing();
  });

  it('arguments of any JSON shape: an answer or a clear error, never internal', async () => {
    const arbitrary = fc.record({
      tool: fc.oneof(fc.constantFrom(...tools.map((t) => t.name)), fc.string({ maxLength: 70 })),
      args: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 5 }),
    });
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ tool, args }) => {
        const outcome = await callTool(tool, args);
        expect(unclear(outcome), `${tool} ${JSON.stringify(args).slice(0, 300)}`).toBeUndefined();
      }),
      { seed: fuzzSeed(170_003), numRuns: fuzzRuns(200) },
    );
    await expectServing();
  });
});

/** Path pieces that try every way out of the root: "..", separators, encodings, links, absolute names. */
function pathArbitrary(): fc.Arbitrary<string> {
  const segment = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(
        '..',
        '.',
        '',
        'a.txt',
        'src',
        'index.ts',
        'deep',
        'outside',
        'secret.txt',
        'root',
        ...ESCAPING_LINKS,
        'link-in',
        '%2e%2e',
        '%2E%2E%2F',
        '..%2f..',
        '..\\..',
        '\\',
        '...',
        '....//',
        '.\u0000',
        '\u0000',
        '\uff0e\uff0e',
        '\u2024\u2024',
        'ünï cödé',
        'файл.txt',
        '~',
        '$HOME',
        '*',
        '**',
        '{..,src}',
        'proc',
        'self',
        'environ',
        'etc',
        'passwd',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
  );
  const joined = fc
    .tuple(
      fc.array(segment, { minLength: 1, maxLength: 7 }),
      fc.constantFrom('/', '/', '/', '\\', '//', '/./'),
      fc.constantFrom('', '', '', '/', './', '\\', '//'),
    )
    .map(([segments, separator, lead]) => lead + segments.join(separator));
  return fc.oneof(
    { weight: 8, arbitrary: joined },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '/proc/self/environ',
        '/proc/self/cwd/../outside/secret.txt',
        '/etc/passwd',
        'C:\\Windows\\win.ini',
        '\\\\?\\C:\\',
        'file:///etc/passwd',
      ),
    },
    // The absolute forms of the rig itself, which only the test knows: outside, and the root itself.
    {
      weight: 2,
      arbitrary: fc
        .constantFrom('outside', 'outside/secret.txt', 'root', 'root/a.txt')
        .map((rel) => `${rig.dir}/${rel}`),
    },
    // Longer than the schema's 4096, and long but allowed.
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 2_000 }).map((n) => '../'.repeat(n)) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 1_300 }).map((n) => 'a/'.repeat(n) + 'a.txt') },
  );
}

/** One workspace request with a hostile path, as a tool call or a file resource read. */
function pathRequest(): fc.Arbitrary<{ label: string; run: () => Promise<Outcome> }> {
  const path = pathArbitrary();
  const tool = (name: string, argsOf: (p: string) => Record<string, unknown>) =>
    path.map((p) => ({
      label: `${name} ${JSON.stringify(argsOf(p))}`,
      run: () => callTool(name, argsOf(p)),
    }));
  return fc.oneof(
    tool('workspace__read_file', (p) => ({ path: p })),
    tool('workspace__list_directory', (p) => ({ path: p, include_ignored: true, max_results: 5000 })),
    tool('workspace__glob', (p) => ({ pattern: '**/*', path: p })),
    tool('workspace__glob', (p) => ({ pattern: p })),
    tool('workspace__glob', (p) => ({ pattern: `${p}/**` })),
    tool('workspace__grep', (p) => ({ pattern: '.', path: p, include_ignored: true })),
    tool('workspace__grep', (p) => ({ pattern: 'MARKER|cnry', path: p })),
    tool('workspace__grep', (p) => ({ pattern: '.', glob: p })),
    path.chain((p) =>
      fc.constantFrom(p, encodeURIComponent(p), encodeURI(p)).map((shown) => ({
        label: `resources/read workspace://file/${shown}`,
        run: () => readResource(`workspace://file/${shown}`),
      })),
    ),
  );
}

describe('fuzz: random paths against the workspace plugin', () => {
  it('never returns content or names from outside the root, and always answers clearly', async () => {
    await fc.assert(
      fc.asyncProperty(pathRequest(), async ({ label, run }) => {
        const outcome = await run();
        expect(unclear(outcome), label).toBeUndefined();
      }),
      { seed: fuzzSeed(170_004), numRuns: fuzzRuns(400) },
    );
    await expectServing();
  });

  it('the links that escape are refused outright (so the property above can fail)', async () => {
    // Without this, a workspace that refused everything would pass; these must read inside and refuse outside.
    const inside = await callTool('workspace__read_file', { path: 'link-in/index.ts' });
    expect(inside.kind === 'result' && inside.text).toContain('export const answer');
    for (const link of ESCAPING_LINKS) {
      const outcome = await callTool('workspace__read_file', { path: link });
      expect(outcome.kind, link).toBe('result');
      if (outcome.kind === 'result') expect(outcome.result.isError, link).toBe(true);
      expect(unclear(outcome), link).toBeUndefined();
    }
  });
});
