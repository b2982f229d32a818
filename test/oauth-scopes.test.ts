// [auth.scopes] over Streamable HTTP against a real local issuer: a tool the token lacks scopes for is not listed to
// it, a call of it is the 403 insufficient_scope step-up challenge naming the scopes (2025 sessions and 2026-07-28
// requests), a token with more scopes for the same subject then succeeds; the planner runs nothing ahead that the
// caller could not call; a glob that matches nothing stops serving; stdio is not affected.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForesightConfig, parseConfig } from '../src/config/index.js';
import { createMemoryLogger, textOf } from './support/in-memory.js';
import { modernPost } from './support/modern-wire.js';
import { INITIALIZE, METADATA_URL, type OAuthRig, startOAuthRig } from './support/oauth-rig.js';
import { exchangeOverStdio } from './support/stdio-exchange.js';
import { model } from './support/planner-fixtures.js';
import { type RecordsPlugin, recordsPlugin } from './support/records-plugin.js';
import { createScopeGuard, scopesNamed } from '../src/tool-scopes.js';

const FILE = '/test/foresight.toml';
const AUTH = '[auth]\nissuer = "https://issuer.test"\naudience = "https://foresight.test/mcp"\n\n';

/** `[auth]` with the given `[auth.scopes]` lines; the rig serves it with its own issuer. */
function configWith(scopes: string): ForesightConfig {
  return parseConfig(`${AUTH}[auth.scopes]\n${scopes}`, FILE, process.cwd());
}

const READ = 'records:read';
const WRITE = 'records:write';
/** rec__list and rec__get say they only read; rec__put says it writes, and rec__touch says nothing (so may). */
const GUARDED = `"rec__*" = { read = "${READ}", write = "${WRITE}" }\n`;

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();
const PUT = { name: 'rec__put', arguments: { key: 'r1', value: 'stepped up' } };
const callBody = (id: number, name = 'rec__put') =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { ...PUT, name } });

/** The 403 of the step-up: the challenge names every scope the call needs and the metadata; the body, the tool. */
async function expectStepUp(response: Response, bearer: string, id: number): Promise<void> {
  const text = await response.text();
  expect(response.status).toBe(403);
  const challenge = response.headers.get('www-authenticate');
  expect(challenge).toBe(
    `Bearer error="insufficient_scope", error_description="rec__put needs scope ${WRITE}", ` +
      `scope="${READ} ${WRITE}", resource_metadata="${METADATA_URL}"`,
  );
  const body = JSON.parse(text) as { id: unknown; error: { code: number; message: string } };
  expect(body.id).toBe(id);
  expect(body.error.message).toMatch(/^insufficient scope: tool rec__put needs the scope "records:write"/);
  expect(text).not.toContain(bearer);
}

describe('[auth.scopes] over HTTP: hidden tools and the 403 step-up', () => {
  let rig: OAuthRig;
  let rec: RecordsPlugin;
  const logger = createMemoryLogger();

  let auditDir: string;
  let auditFile: string;

  beforeAll(async () => {
    rec = recordsPlugin();
    auditDir = await mkdtemp(path.join(tmpdir(), 'foresight-scopes-audit-'));
    auditFile = path.join(auditDir, 'audit.jsonl');
    const config = configWith(GUARDED);
    rig = await startOAuthRig({
      host: { config, plugins: [rec.plugin], logger, audit: { enabled: true, file: auditFile } },
      oauth: { toolScopes: config.auth?.toolScopes },
    });
  });
  afterAll(async () => {
    await rig.close();
    await rm(auditDir, { recursive: true, force: true });
  });

  it('the metadata lists the scopes the tools need when scopes_supported is not set', async () => {
    const response = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', rig.http.url));
    expect(await response.json()).toMatchObject({ scopes_supported: [READ, WRITE] });
  });

  it('a 2025 session: read tools only, 403 on the write tool, then a step-up token on the same session succeeds', async () => {
    const read = await rig.token({ scope: READ });
    const { client, use } = await rig.connectSwappable(read);
    expect(await names(client)).toEqual(['rec__get', 'rec__list']);
    expect(textOf(await client.callTool({ name: 'rec__get', arguments: { key: 'r1' } }))).toContain('v1.0');

    const refused = await client.callTool(PUT).then(
      () => undefined,
      (error: unknown) => error as Error,
    );
    expect(refused).toBeInstanceOf(Error);
    expect(String(refused?.message)).not.toContain(read);
    expect(rec.count('put')).toBe(0);

    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void (changed += 1));
    use(await rig.token({ scope: `${READ} ${WRITE}` }));
    expect(textOf(await client.callTool(PUT))).toContain('ok');
    expect(rec.records.get('r1')).toBe('stepped up');
    // The session's list grew with the token: its client is told, and lists the write tools now.
    await expect.poll(() => changed).toBe(1);
    expect(await names(client)).toEqual(['rec__get', 'rec__list', 'rec__put', 'rec__touch']);
  });

  it('a 2025 session on the wire: the 403 challenge and error for a call in the session, never the token', async () => {
    const read = await rig.token({ sub: 'wire', scope: READ });
    const opened = await rig.post({ authorization: `Bearer ${read}` }, INITIALIZE);
    expect(opened.status).toBe(200);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const headers = {
      authorization: `Bearer ${read}`,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    };
    await expectStepUp(await rig.post(headers, callBody(7)), read, 7);
    // The session is still there: the same call with a step-up token goes through on it.
    const both = await rig.token({ sub: 'wire', scope: `${READ} ${WRITE}` });
    const stepped = await rig.post({ ...headers, authorization: `Bearer ${both}` }, callBody(8));
    expect(stepped.status).toBe(200);
    expect(await stepped.text()).toContain('"ok"');
  });

  it('a 2025-03-26 batch holding a call the token may not make is refused whole, the 403 naming that call', async () => {
    const read = await rig.token({ sub: 'batcher', scope: READ });
    const initialize = JSON.parse(INITIALIZE) as { params: { protocolVersion: string } };
    initialize.params.protocolVersion = '2025-03-26';
    const opened = await rig.post({ authorization: `Bearer ${read}` }, JSON.stringify(initialize));
    const session = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const puts = rec.count('put');
    const batch = `[${JSON.stringify({ jsonrpc: '2.0', id: 20, method: 'tools/list', params: {} })},${callBody(21)}]`;
    const response = await rig.post(
      { authorization: `Bearer ${read}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-03-26' },
      batch,
    );
    await expectStepUp(response, read, 21);
    expect(rec.count('put')).toBe(puts);
  });

  it('a 2026-07-28 client: the same listing, the 403 on the wire, and success with the step-up token', async () => {
    const read = await rig.token({ sub: 'bob', scope: READ });
    const { client, use } = await rig.connectSwappable(read, 'modern');
    expect(client.getProtocolEra()).toBe('modern');
    expect(await names(client)).toEqual(['rec__get', 'rec__list']);

    // Its list is this caller's own: a cache must not hand it to another token.
    const listed = await modernPost(
      rig.http.url,
      'tools/list',
      {},
      { headers: { authorization: `Bearer ${read}` } },
    );
    expect(listed.response?.result).toMatchObject({ cacheScope: 'private' });

    const wire = await modernPost(rig.http.url, 'tools/call', PUT, {
      id: 9,
      headers: { authorization: `Bearer ${read}` },
    });
    expect(wire.status).toBe(403);
    expect(wire.headers['www-authenticate']).toBe(
      `Bearer error="insufficient_scope", error_description="rec__put needs scope ${WRITE}", ` +
        `scope="${READ} ${WRITE}", resource_metadata="${METADATA_URL}"`,
    );
    expect(wire.response?.error?.message).toMatch(/tool rec__put needs the scope "records:write"/);

    await expect(client.callTool(PUT)).rejects.toThrow();
    use(await rig.token({ sub: 'bob', scope: `${READ} ${WRITE}` }));
    expect(textOf(await client.callTool(PUT))).toContain('ok');
    expect(await names(client)).toEqual(['rec__get', 'rec__list', 'rec__put', 'rec__touch']);
  });

  it('a token with none of the scopes is listed none of the guarded tools, and its read is refused too', async () => {
    const none = await rig.token({ sub: 'carol' });
    const client = await rig.connect(none);
    expect(await names(client)).toEqual([]);
    const response = await rig.post({ authorization: `Bearer ${none}` }, INITIALIZE);
    const session = response.headers.get('mcp-session-id')!;
    await response.body?.cancel();
    const get = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'rec__get', arguments: { key: 'r1' } },
    });
    const refused = await rig.post(
      { authorization: `Bearer ${none}`, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
      get,
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain(`scope="${READ}"`);
    await refused.body?.cancel();
  });

  it('over stdio the same host serves every tool: no token, no guard', async () => {
    const answers = await exchangeOverStdio(rig.host, [
      { method: 'tools/list', params: {} },
      { method: 'tools/call', params: { ...PUT, arguments: { key: 'r2', value: 'local' } } },
    ]);
    expect(
      answers
        .get(2)
        ?.result?.tools?.map((tool) => tool.name)
        .sort(),
    ).toEqual(['rec__get', 'rec__list', 'rec__put', 'rec__touch']);
    expect(answers.get(3)?.result?.isError).not.toBe(true);
    expect(rec.records.get('r2')).toBe('local');
  });

  it('the audit log has a line per refused call, by subject and tool; no log or audit line holds a token', async () => {
    const text = await readFile(auditFile, 'utf8');
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const issuerHost = new URL(rig.issuer.issuer).host;
    expect(lines).toContainEqual({
      audit: true,
      time: expect.any(String),
      principal: `sub:${issuerHost}:wire`,
      tool: 'rec__put',
      plugin: 'rec',
      outcome: 'error',
      error: { code: 'insufficient_scope' },
      latency_ms: 0,
      speculative: false,
      era: 'legacy',
      transport: 'http',
      request_id: 7,
    });
    expect(lines).toContainEqual(
      expect.objectContaining({
        principal: `sub:${issuerHost}:bob`,
        tool: 'rec__put',
        era: 'modern',
        request_id: 9,
      }),
    );
    const logged = JSON.stringify(logger.records);
    expect(rig.tokens.length).toBeGreaterThan(5);
    for (const token of rig.tokens) {
      expect(logged).not.toContain(token);
      expect(text).not.toContain(token);
    }
  });
});

describe('the planner under [auth.scopes]', () => {
  let rig: OAuthRig;
  let rec: RecordsPlugin;

  beforeAll(async () => {
    rec = recordsPlugin({
      models: {
        list: model({
          followUp: [
            { tool: 'rec__get', probability: 0.9, projection: 'items[*].key', projectionArg: 'key' },
          ],
        }),
        get: model(),
      },
    });
    const config = configWith(`"rec__get" = "records:get"\n`);
    rig = await startOAuthRig({
      host: {
        config,
        plugins: [rec.plugin],
        logger: createMemoryLogger(),
        planner: { enabled: true, learning: false, probabilityFloor: 0.2, maxWastePerHit: Infinity },
      },
      oauth: { toolScopes: config.auth?.toolScopes },
    });
  });
  afterAll(() => rig.close());

  it('runs ahead for a token that may call the follow-up, never for one that may not', async () => {
    const issuerHost = new URL(rig.issuer.issuer).host;
    const speculativeGetsOf = (sub: string) =>
      rec.log.filter(
        (call, at) =>
          call.tool === 'get' && call.speculative && rec.principals[at] === `sub:${issuerHost}:${sub}`,
      ).length;
    const without = await rig.connect(await rig.token({ sub: 'dave' }));
    const allowed = await rig.connect(await rig.token({ sub: 'erin', scope: 'records:get' }));
    await without.callTool({ name: 'rec__list', arguments: {} });
    await allowed.callTool({ name: 'rec__list', arguments: {} });
    // The control: the follow-up reads do run ahead, for the caller who may make them.
    await expect.poll(() => speculativeGetsOf('erin'), { timeout: 5_000 }).toBe(3);
    expect(speculativeGetsOf('dave')).toBe(0);
  });
});

describe('[auth.scopes] rules', () => {
  it('a glob that matches no listed tool stops serveHttp, naming the key and its line', async () => {
    const config = configWith(`"rec__*" = "${READ}"\n"gh__*" = "repo:read"\n`);
    const rig = startOAuthRig({
      host: { config, plugins: [recordsPlugin().plugin], logger: createMemoryLogger() },
      oauth: { toolScopes: config.auth?.toolScopes },
    });
    await expect(rig).rejects.toThrow(
      `${FILE}:7: auth.scopes."gh__*": glob matches no listed tool, so it guards nothing`,
    );
  });

  it("a glob that may name a disabled plugin's tools is not checked against it: serving goes on, with a warning", async () => {
    const config = parseConfig(
      `${AUTH}[auth.scopes]\n"rec__*" = "${READ}"\n"off__*" = "off:read"\n\n[plugins.off]\nuse = "workspace"\nenabled = false\nroot = "."\n`,
      FILE,
      process.cwd(),
    );
    const logger = createMemoryLogger();
    const rig = await startOAuthRig({
      host: { config, plugins: [recordsPlugin().plugin], logger },
      oauth: { toolScopes: config.auth?.toolScopes },
    });
    try {
      expect(logger.records).toContainEqual(
        expect.objectContaining({
          level: 'warn',
          msg: '[auth.scopes] auth.scopes."off__*" (line 7): not checked: plugin off is disabled',
        }),
      );
      const client = await rig.connect(await rig.token({ scope: READ }));
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('rec__get');
    } finally {
      await rig.close();
    }
  });

  it('rules add up: a tool matched by several globs needs every scope they give; only a tool that may write needs write', () => {
    const rules = configWith(
      `"*" = "mcp"\n"rec__*" = { read = "${READ}", write = "${WRITE}" }\n"rec__put" = "${READ}"\n`,
    ).auth!.toolScopes!;
    const writes = new Set(['rec__put']);
    const guard = createScopeGuard(rules, (tool) => writes.has(tool));
    expect(guard('rec__get')).toEqual(['mcp', READ]);
    expect(guard('rec__put')).toEqual(['mcp', READ, WRITE]);
    expect(guard('other__tool')).toEqual(['mcp']);
    expect(scopesNamed(rules)).toEqual(['mcp', READ, WRITE]);
  });

  it('a table with write alone guards only the tools that may write', () => {
    const rules = configWith(`"rec__*" = { write = "${WRITE}" }\n`).auth!.toolScopes!;
    const guard = createScopeGuard(rules, (tool) => tool === 'rec__put');
    expect(guard('rec__get')).toEqual([]);
    expect(guard('rec__put')).toEqual([WRITE]);
  });
});
