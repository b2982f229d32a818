// Redaction follows a secret into the forms it travels in: an HTTP Basic credential echoed back by Jira (in tool
// errors, tool descriptions, logs and `foresight check`), base64 inside longer base64, URL encoding, and binary
// contents, which are redacted when they are text and withheld when they are not.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { redactSecrets, redactSecretsInListing, registerSecret } from '../src/config/index.js';
import { definePlugin } from '../src/index.js';
import { makeWorkspace, removeWorkspaces, runCli } from './support/cli.js';
import { jira, startFakeJira } from './support/fake-jira.js';
import { EMAIL, TOKEN, type JiraRig, authHeader, startJiraRig, text } from './support/fake-jira-harness.js';
import { routeMetadata, PROJ } from './support/fake-jira-metadata.js';
import { connect, textOf } from './support/in-memory.js';
import { PATIENCE_MS } from './support/patience.js';

const BASIC = authHeader('cloud');
const BASIC_BASE64 = BASIC.slice('Basic '.length);
/** Any 8 characters of the credential's base64 would already say too much. */
const basicPieces = [BASIC_BASE64.slice(0, 12), BASIC_BASE64.slice(12, 24), BASIC_BASE64.slice(-12)];

function expectNoCredential(output: string): void {
  expect(output).not.toContain(TOKEN);
  for (const piece of basicPieces) expect(output).not.toContain(piece);
}

let rig: JiraRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
  await removeWorkspaces();
});

describe('a Basic credential echoed back by Jira', () => {
  it('is redacted in tool errors and in tool descriptions built from a failed metadata load', async () => {
    rig = await startJiraRig({
      noWait: true,
      routes: (fake) =>
        fake.route('GET', '/rest/api/3/priority', (request) => ({
          status: 500,
          body: { errorMessages: [`cannot serve ${request.headers.authorization ?? ''}`] },
        })),
    });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', (request) => ({
      status: 400,
      body: { errorMessages: [`header was ${request.headers.authorization ?? ''}`], errors: {} },
    }));
    const failed = await rig.call('get_issue', { key: 'PROJ-7' });
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain('header was Basic [redacted]');
    expectNoCredential(JSON.stringify(failed));

    await vi.waitFor(
      async () => expect((await rig?.tool('get_issue'))?.description).toMatch(/could not be loaded/),
      PATIENCE_MS,
    );
    const { tools } = await rig.client.listTools();
    expect(JSON.stringify(tools)).toContain('cannot serve Basic [redacted]');
    expectNoCredential(JSON.stringify(tools));
  });

  it('is redacted in what `foresight check` prints and logs', async () => {
    const fake = await startFakeJira();
    try {
      fake.expectAuth('authorization', BASIC);
      // The health probe answers, as Jira does for good credentials: the plugin then stays `starting` until its
      // metadata load has failed, and `check` waits for that. Without it the probe's 404 marks the plugin down at
      // once, and `check` may print and exit before the load's failure (the echoed header) is even logged.
      fake.route('GET', '/rest/api/3/myself', {
        status: 200,
        body: jira.user('cloud', '5b10a2844c20165700ede21g', 'Mia Krystof'),
      });
      routeMetadata(fake, 'cloud', [PROJ]);
      fake.route('GET', '/rest/api/3/priority', (request) => ({
        status: 500,
        body: { errorMessages: [`cannot serve ${request.headers.authorization ?? ''}`] },
      }));
      const cwd = await makeWorkspace();
      await writeFile(
        path.join(cwd, 'foresight.toml'),
        `[plugins.jira]\nbase_url = "${fake.url}"\nflavor = "cloud"\nemail_env = "CHECK_JIRA_EMAIL"\ntoken_env = "CHECK_JIRA_TOKEN"\nprojects = ["PROJ"]\nretries = 0\n`,
      );
      const env = { CHECK_JIRA_EMAIL: EMAIL, CHECK_JIRA_TOKEN: TOKEN, FORESIGHT_LOG_LEVEL: 'debug' };
      const run = await runCli(['check'], { cwd, env });
      const output = run.stdout + run.stderr;
      // Printed (the plugin's degraded line) and logged (the failed load's warning), redacted in both.
      expect(run.stdout).toContain('cannot serve Basic [redacted]');
      expect(run.stderr).toContain('cannot serve Basic [redacted]');
      expectNoCredential(output);
    } finally {
      await fake.close();
    }
  });
});

describe('base64 and URL forms of a secret', () => {
  const SECRET = 'sk_live_2f8a9c/+x?&y=z';

  it('finds the secret at any alignment inside a longer base64 text', () => {
    registerSecret(SECRET);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 16 }), fc.uint8Array({ maxLength: 16 }), (before, after) => {
        const encoded = Buffer.concat([before, Buffer.from(SECRET), after]);
        for (const base64 of [encoded.toString('base64'), encoded.toString('base64url')]) {
          const redacted = redactSecrets(`payload=${base64};`);
          expect(redacted).toContain('[redacted]');
          // What is left around the cut decodes to at most 2 bytes of the secret on each side.
          for (const part of redacted.slice('payload='.length, -1).split('[redacted]'))
            expect(Buffer.from(part, 'base64').toString('latin1')).not.toContain(SECRET.slice(2, -2));
        }
      }),
      { seed: 17, numRuns: 300 },
    );
  });

  it('redacts the URL-encoded form and the JSON-escaped one', () => {
    registerSecret(SECRET);
    expect(redactSecrets(`GET /api?token=${encodeURIComponent(SECRET)}&x=1`)).toBe(
      'GET /api?token=[redacted]&x=1',
    );
    expect(redactSecrets(JSON.stringify({ token: 'a"quoted\\secret' }))).toContain('a\\"quoted');
    registerSecret('a"quoted\\secret');
    expect(redactSecrets(JSON.stringify({ token: 'a"quoted\\secret' }))).toBe('{"token":"[redacted]"}');
  });
});

describe('a published list', () => {
  it('is redacted once per list and per set of secrets, and again when a secret is registered', () => {
    registerSecret('list-secret-one');
    const tools = [
      { name: 'a', description: 'token list-secret-one here' },
      { name: 'b', description: 'later list-secret-two' },
    ];
    const first = redactSecretsInListing(tools);
    expect(first).not.toBe(tools);
    expect(first[0]?.description).toBe('token [redacted] here');
    expect(redactSecretsInListing(tools)).toBe(first);
    // A rebuilt list (a new array) is searched anew.
    expect(redactSecretsInListing([...tools])).not.toBe(first);
    registerSecret('list-secret-two');
    const again = redactSecretsInListing(tools);
    expect(again).not.toBe(first);
    expect(again[1]?.description).toBe('later [redacted]');
  });
});

describe('binary contents', () => {
  const CANARY = 'canary_9d3b7e51a4c2f';
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
  const blobs: Record<string, { blob: string; mimeType: string }> = {
    'text.json': {
      blob: Buffer.from(`{"token":"${CANARY}"}`).toString('base64'),
      mimeType: 'application/json',
    },
    'secret.png': {
      blob: Buffer.concat([PNG, Buffer.from(CANARY), PNG]).toString('base64'),
      mimeType: 'image/png',
    },
    'clean.png': { blob: Buffer.concat([PNG, PNG]).toString('base64'), mimeType: 'image/png' },
    'basic.txt': {
      blob: Buffer.from(`Authorization: Basic ${Buffer.from(`bot:${CANARY}`).toString('base64')}\n`).toString(
        'base64',
      ),
      mimeType: 'application/octet-stream',
    },
  };
  const blobby = definePlugin({
    id: 'blobby',
    version: '1.0.0',
    build: (ctx) => {
      // As a plugin handed its token in code (not through the config) would: it tells the host what to redact.
      ctx.secrets?.addBasicCredential('bot', CANARY);
      return {
        tools: () => [
          { name: 'picture', inputSchema: { type: 'object', properties: { secret: { type: 'boolean' } } } },
        ],
        callTool: async (_name, args) => ({
          content: [
            {
              type: 'image',
              mimeType: 'image/png',
              data: (args.secret ? blobs['secret.png'] : blobs['clean.png'])?.blob ?? '',
            },
          ],
        }),
        resources: () => Object.keys(blobs).map((name) => ({ uri: name, name })),
        readResource: async (uri) => {
          const name = uri.slice(uri.lastIndexOf('/') + 1);
          const found = blobs[name];
          if (!found) throw new Error(`no ${name}`);
          return { contents: [{ uri, ...found }] };
        },
      };
    },
  });

  it('redacts a text blob and encodes it again, keeps a clean binary blob, withholds a binary one with the secret', async () => {
    const { client, close } = await connect({ plugins: [blobby], planner: { enabled: false } });
    try {
      const decoded = async (name: string) => {
        const read = await client.readResource({ uri: `blobby://${name}` });
        const content = read.contents[0] as { blob: string };
        return Buffer.from(content.blob, 'base64');
      };
      expect((await decoded('text.json')).toString()).toBe('{"token":"[redacted]"}');
      expect((await decoded('basic.txt')).toString()).toBe('Authorization: Basic [redacted]\n');
      expect((await decoded('clean.png')).equals(Buffer.concat([PNG, PNG]))).toBe(true);

      const refused = client.readResource({ uri: 'blobby://secret.png' });
      await expect(refused).rejects.toThrow(
        /binary content \(image\/png\) in which a configured secret appears/,
      );
      await expect(refused).rejects.not.toThrow(CANARY);

      const picture = (await client.callTool({
        name: 'blobby__picture',
        arguments: { secret: true },
      })) as CallToolResult;
      expect(picture.isError).toBe(true);
      expect(textOf(picture)).toMatch(/withheld/);
      expect(JSON.stringify(picture)).not.toContain(Buffer.from(CANARY).toString('base64').slice(0, 12));
      const clean = (await client.callTool({ name: 'blobby__picture', arguments: {} })) as CallToolResult;
      expect(clean.content).toEqual([
        { type: 'image', mimeType: 'image/png', data: blobs['clean.png']?.blob },
      ]);
    } finally {
      await close();
    }
  });
});
