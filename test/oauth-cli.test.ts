// `foresight serve --http` with [auth] in foresight.toml, against a local issuer: the CLI verifies access tokens
// (JWTs, and opaque ones by introspection with the client secret from its variable), serves the protected resource
// metadata, and at debug level logs nothing of the tokens it saw nor of the introspection client secret.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type HttpServer,
  killAll,
  makeWorkspace,
  removeWorkspaces,
  runCli,
  startHttpServer,
} from './support/cli.js';
import { type LocalIssuer, startLocalIssuer } from './support/local-issuer.js';

const AUDIENCE = 'https://foresight.test/mcp';

let issuer: LocalIssuer;
let server: HttpServer;

beforeAll(async () => {
  issuer = await startLocalIssuer({ alg: 'RS256' });
  const cwd = await makeWorkspace();
  const config = path.join(cwd, 'foresight.toml');
  await writeFile(
    config,
    [
      '[server]',
      'log_level = "debug"',
      '',
      '[auth]',
      `issuer = ${JSON.stringify(issuer.issuer)}`,
      `audience = ${JSON.stringify(AUDIENCE)}`,
      'scopes_supported = ["mcp:tools"]',
      '',
      '[plugins.workspace]',
      'root = "."',
      '',
    ].join('\n'),
  );
  server = await startHttpServer({ cwd, config });
});

afterAll(async () => {
  await killAll();
  await removeWorkspaces();
  await issuer.close();
});

describe('serve --http with [auth]', () => {
  it('serves a client with a valid token, refuses a forged one, and logs neither', async () => {
    const good = await issuer.sign({ sub: 'alice', aud: AUDIENCE });
    const client = new Client({ name: 'oauth-cli', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(server.url, {
        requestInit: { headers: { authorization: `Bearer ${good}` } },
      }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();

    const forged = await issuer.sign({ sub: 'alice', aud: AUDIENCE }, { key: await issuer.stranger() });
    const refused = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${forged}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain(
      'resource_metadata="https://foresight.test/.well-known/oauth-protected-resource/mcp"',
    );
    await refused.body?.cancel();

    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', server.url));
    expect(await metadata.json()).toMatchObject({
      resource: AUDIENCE,
      authorization_servers: [issuer.issuer],
    });

    const logged = server.stderr();
    expect(logged).toContain('"level":20');
    expect(logged).not.toContain(good);
    expect(logged).not.toContain(forged);
    // Nor the signature part alone.
    expect(logged).not.toContain(good.split('.')[2]);
  });
});

describe('serve --http with [auth] and token introspection', () => {
  const introspectionConfig = async (secretVariable: string) => {
    const cwd = await makeWorkspace();
    const config = path.join(cwd, 'foresight.toml');
    await writeFile(
      config,
      [
        '[server]',
        'transport = "http"',
        'http = "127.0.0.1:0"',
        'log_level = "debug"',
        '',
        '[auth]',
        `issuer = ${JSON.stringify(issuer.issuer)}`,
        `audience = ${JSON.stringify(AUDIENCE)}`,
        `introspection_client_id = ${JSON.stringify(issuer.introspectionClient.id)}`,
        `introspection_client_secret_env = ${JSON.stringify(secretVariable)}`,
        '',
        '[plugins.workspace]',
        'root = "."',
        '',
      ].join('\n'),
    );
    return { cwd, config };
  };

  it('serves an opaque token checked at the introspection endpoint, and logs neither it nor the secret', async () => {
    const { cwd, config } = await introspectionConfig('FS_INTROSPECTION_SECRET');
    const opaqueServer = await startHttpServer({
      cwd,
      config,
      env: { FS_INTROSPECTION_SECRET: issuer.introspectionClient.secret },
    });
    const token = issuer.opaque({ sub: 'erin', aud: AUDIENCE });
    const client = new Client({ name: 'oauth-cli-opaque', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(opaqueServer.url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    expect(issuer.hits.get('/introspect')).toBeGreaterThanOrEqual(1);

    const logged = opaqueServer.stderr();
    expect(logged).toContain('"level":20');
    expect(logged).not.toContain(token);
    expect(logged).not.toContain(issuer.introspectionClient.secret);
  });

  it('refuses to start when the secret variable is unset, naming it and the key', async () => {
    const { cwd, config } = await introspectionConfig('FS_INTROSPECTION_SECRET_UNSET');
    const result = await runCli(['serve', '--config', config], {
      cwd,
      env: { FS_INTROSPECTION_SECRET_UNSET: undefined },
    });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      /FS_INTROSPECTION_SECRET_UNSET \(named by auth\.introspection_client_secret_env in .*foresight\.toml:\d+\) is not set/,
    );
  });
});

describe('serve --http with [auth.scopes]', () => {
  it('lists a guarded tool only to a token with its scope, and answers the call of one without it with 403', async () => {
    const cwd = await makeWorkspace();
    const config = path.join(cwd, 'foresight.toml');
    await writeFile(
      config,
      [
        '[auth]',
        `issuer = ${JSON.stringify(issuer.issuer)}`,
        `audience = ${JSON.stringify(AUDIENCE)}`,
        '',
        '[auth.scopes]',
        '"workspace__read_file" = "files:read"',
        '',
        '[plugins.workspace]',
        'root = "."',
        '',
      ].join('\n'),
    );
    const guarded = await startHttpServer({ cwd, config });
    const listedTo = async (bearer: string) => {
      const client = new Client({ name: 'oauth-cli-scopes', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(guarded.url, {
          requestInit: { headers: { authorization: `Bearer ${bearer}` } },
        }),
      );
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      await client.close();
      return names;
    };
    const plain = await issuer.sign({ sub: 'alice', aud: AUDIENCE });
    const reader = await issuer.sign({ sub: 'alice', aud: AUDIENCE, scope: 'files:read' });
    expect(await listedTo(plain)).not.toContain('workspace__read_file');
    expect(await listedTo(plain)).toContain('workspace__glob');
    expect(await listedTo(reader)).toContain('workspace__read_file');

    const call = await fetch(guarded.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'workspace__read_file',
        authorization: `Bearer ${plain}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'workspace__read_file',
          arguments: { path: 'foresight.toml' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      }),
    });
    expect(call.status).toBe(403);
    expect(call.headers.get('www-authenticate')).toMatch(
      /^Bearer error="insufficient_scope", .*scope="files:read"/,
    );
    await call.body?.cancel();
    expect(guarded.stderr()).not.toContain(plain);
  });
});
