// Mcp-Param-* headers (SEP-2243): the parameters a tool mirrors into headers, how a header is decoded, and a
// 2026-07-28 tool call over HTTP whose headers disagree with its arguments refused with -32020.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { type ForesightHost, createHost } from '../src/create-host.js';
import { decodeParamHeader, headerParams, paramHeaderMismatch } from '../src/protocol/param-headers.js';
import { createMemoryLogger } from './support/in-memory.js';
import { modernPost } from './support/modern-wire.js';

describe('the parameters a tool mirrors into headers', () => {
  it('are those marked x-mcp-header, reached from the root through properties only', () => {
    expect(
      headerParams({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
          list: { type: 'array', items: { type: 'object', properties: { x: { 'x-mcp-header': 'X' } } } },
          plain: { type: 'string' },
        },
      }),
    ).toEqual([
      { header: 'Region', path: ['region'] },
      { header: 'Zone', path: ['target', 'zone'] },
    ]);
  });
});

describe('a header value', () => {
  it('is literal unless wrapped, and a wrapped value must be canonical Base64', () => {
    expect(decodeParamHeader('us-west1')).toBe('us-west1');
    expect(decodeParamHeader('=?base64?SGVsbG8sIOS4lueVjA==?=')).toBe('Hello, 世界');
    expect(decodeParamHeader('=?base64?SGVsbG8?=')).toBeUndefined();
    expect(decodeParamHeader('=?base64?SGVs!!!bG8=?=')).toBeUndefined();
    // Without its closing marker it is not wrapped: a literal.
    expect(decodeParamHeader('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeParamHeader('caf\u00e9')).toBeUndefined();
  });

  it('must be there for a present argument, match it, and not be there for an absent one', () => {
    const params = [{ header: 'Region', path: ['region'] }];
    const headers = (value?: string) => (name: string) => (name === 'mcp-param-region' ? value : undefined);
    expect(paramHeaderMismatch(params, { region: 'eu' }, headers('eu'))).toBeUndefined();
    expect(paramHeaderMismatch(params, {}, headers())).toBeUndefined();
    expect(paramHeaderMismatch(params, { region: 'eu' }, headers())).toMatch(/Mcp-Param-Region is missing/);
    expect(paramHeaderMismatch(params, { region: 'eu' }, headers('us'))).toMatch(
      /does not match the argument region/,
    );
    expect(paramHeaderMismatch(params, {}, headers('eu'))).toMatch(/the arguments have no region/);
    expect(paramHeaderMismatch([{ header: 'N', path: ['n'] }], { n: 42 }, () => '42')).toBeUndefined();
  });
});

describe('a 2026-07-28 tool call over HTTP', () => {
  let host: ForesightHost;
  let url: string;
  beforeAll(async () => {
    host = createHost({
      config: parseConfig(
        '[plugins.conformance]\nprefix = ""\nwatch_interval_ms = 0\n',
        '/t/foresight.toml',
        '/t',
        {},
      ),
      logger: createMemoryLogger(),
    });
    url = (await host.serveHttp({ port: 0 })).url;
  });
  afterAll(() => host.close());

  const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
    modernPost(url, 'tools/call', { name: 'test_custom_header', arguments: args }, { headers });

  it('is served when its mirrored headers match, Base64-wrapped or not', async () => {
    const plain = await call(
      { region: 'eu', shard: 7 },
      { 'mcp-param-region': 'eu', 'mcp-param-shard': '7' },
    );
    expect(plain.response?.result).toMatchObject({ content: [{ text: 'region=eu shard=7' }] });
    const wrapped = await call({ region: ' padded ' }, { 'mcp-param-region': '=?base64?IHBhZGRlZCA=?=' });
    expect(wrapped.response?.result).toMatchObject({ content: [{ text: 'region= padded  shard=-' }] });
  });

  it('is refused with -32020 and HTTP 400 when a header is missing, different or malformed', async () => {
    for (const [args, headers, why] of [
      [{ region: 'eu' }, {}, /Mcp-Param-Region is missing/],
      [{ region: 'eu' }, { 'mcp-param-region': 'us' }, /does not match/],
      [{ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }, /malformed/],
      [
        { region: 'eu', shard: 1 },
        { 'mcp-param-region': 'eu', 'mcp-param-shard': '2' },
        /Mcp-Param-Shard does not match/,
      ],
    ] as const) {
      const refused = await call(args, headers);
      expect(refused.status).toBe(400);
      expect(refused.response?.error?.code).toBe(-32020);
      expect(refused.response?.error?.message).toMatch(why);
    }
  });
});
