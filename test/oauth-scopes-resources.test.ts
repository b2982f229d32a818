// [auth.scopes] over a plugin's resources and prompts, over Streamable HTTP against a real local issuer: a token
// without the read scope of the glob covering all the plugin's tools is listed none of them, and its reads, prompt
// gets, completions, subscriptions and listen streams are the 403 insufficient_scope step-up (2025 sessions and
// 2026-07-28 requests); a step-up token then succeeds; Foresight's own resources stay open; stdio is not affected.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ForesightConfig, parseConfig } from '../src/config/index.js';
import { type PluginContext, type PluginProvider, definePlugin } from '../src/index.js';
import { PLANNER_STATS_URI } from '../src/planner/index.js';
import { stepUpAnswer } from '../src/protocol/scope-challenge.js';
import { createCatalogScopeGuard, pluginReadScopes } from '../src/tool-scopes.js';
import { createMemoryLogger } from './support/in-memory.js';
import { modernPost } from './support/modern-wire.js';
import { INITIALIZE, METADATA_URL, type OAuthRig, startOAuthRig } from './support/oauth-rig.js';
import { exchangeOverStdio } from './support/stdio-exchange.js';
import { recordsPlugin } from './support/records-plugin.js';

const FILE = '/test/foresight.toml';
const AUTH = '[auth]\nissuer = "https://issuer.test"\naudience = "https://foresight.test/mcp"\n\n';
const RECORDS = 'records:read';
const NOTES = 'notes:read';
/** How the SDK client reports the 403: the scope our challenge names. */
const REFUSED = /insufficient scope: required "notes:read"/i;

function configWith(scopes: string): ForesightConfig {
  return parseConfig(`${AUTH}[auth.scopes]\n${scopes}`, FILE, process.cwd());
}

/**
 * A plugin with one read tool, a resource, a template, a prompt and completions; it counts what it serves, and
 * `update` tells subscribers a resource changed.
 */
function notesPlugin() {
  const served = { reads: 0, prompts: 0, completions: 0 };
  let context: PluginContext | undefined;
  const plugin = definePlugin({
    id: 'notes',
    version: '1.0.0',
    build: (ctx) => {
      context = ctx;
      return notesProvider(served);
    },
  });
  return { plugin, served, update: (local: string) => context?.notifyResourceUpdated(local) };
}

function notesProvider(served: { reads: number; prompts: number; completions: number }): PluginProvider {
  return {
    tools: () => [
      {
        name: 'search',
        description: 'Finds notes.',
        inputSchema: { type: 'object', properties: {} },
        annotations: { readOnlyHint: true },
      },
    ],
    callTool: async () => ({ content: [{ type: 'text', text: 'found' }] }),
    resources: () => [{ uri: 'readme', name: 'readme', mimeType: 'text/plain' }],
    resourceTemplates: () => [{ uriTemplate: 'note/{id}', name: 'note' }],
    readResource: async (uri) => {
      served.reads += 1;
      return { contents: [{ uri, mimeType: 'text/plain', text: 'private notes' }] };
    },
    prompts: () => [{ name: 'summarize', arguments: [{ name: 'id' }] }],
    getPrompt: async () => {
      served.prompts += 1;
      return { messages: [{ role: 'user', content: { type: 'text', text: 'summarize the notes' } }] };
    },
    complete: async () => {
      served.completions += 1;
      return { values: ['n1', 'n2'] };
    },
  };
}

/** A plugin with no tools and one resource: no glob here covers every listed tool, so nothing guards it. */
function feedPlugin() {
  let context: PluginContext | undefined;
  const plugin = definePlugin({
    id: 'pub',
    version: '1.0.0',
    build: (ctx) => {
      context = ctx;
      return {
        tools: () => [],
        callTool: async () => ({ content: [] }),
        resources: () => [{ uri: 'feed', name: 'feed' }],
        readResource: async (uri) => ({ contents: [{ uri, text: 'public' }] }),
      };
    },
  });
  return { plugin, update: (local: string) => context?.notifyResourceUpdated(local) };
}

const README = 'notes://readme';
const FEED = 'pub://feed';
const PROMPT = { name: 'notes__summarize', arguments: { id: 'n1' } };
const PROMPT_REF = {
  ref: { type: 'ref/prompt' as const, name: 'notes__summarize' },
  argument: { name: 'id', value: 'n' },
};
const TEMPLATE_REF = {
  ref: { type: 'ref/resource' as const, uri: 'notes://note/{id}' },
  argument: { name: 'id', value: 'n' },
};

const resourceUris = async (client: Client) =>
  (await client.listResources()).resources.map((r) => r.uri).sort();
const templateUris = async (client: Client) =>
  (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
const promptNames = async (client: Client) => (await client.listPrompts()).prompts.map((p) => p.name);

const challenge = (what: string) =>
  `Bearer error="insufficient_scope", error_description="${what} needs scope ${NOTES}", ` +
  `scope="${NOTES}", resource_metadata="${METADATA_URL}"`;

describe('[auth.scopes] over HTTP: a plugin’s resources and prompts', () => {
  let rig: OAuthRig;
  let notes: ReturnType<typeof notesPlugin>;
  let feed: ReturnType<typeof feedPlugin>;

  beforeAll(async () => {
    notes = notesPlugin();
    feed = feedPlugin();
    const config = configWith(
      `"rec__*" = "${RECORDS}"\n"notes__*" = { read = "${NOTES}", write = "notes:write" }\n`,
    );
    rig = await startOAuthRig({
      host: {
        config,
        plugins: [recordsPlugin().plugin, notes.plugin, feed.plugin],
        logger: createMemoryLogger(),
      },
      oauth: { toolScopes: config.auth?.toolScopes },
    });
  });
  afterAll(() => rig.close());

  it('a 2025 session: none of them listed nor served without the scope; a step-up token on the same session succeeds', async () => {
    const { client, use } = await rig.connectSwappable(await rig.token({ sub: 'ann', scope: RECORDS }));
    // Foresight's own resource stays listed and readable: it shows the caller only their own data.
    expect(await resourceUris(client)).toEqual([PLANNER_STATS_URI, FEED].sort());
    expect(await templateUris(client)).toEqual([]);
    expect(await promptNames(client)).toEqual([]);
    expect((await client.readResource({ uri: PLANNER_STATS_URI })).contents).toHaveLength(1);

    await expect(client.readResource({ uri: README })).rejects.toThrow(REFUSED);
    await expect(client.readResource({ uri: 'notes://note/n1' })).rejects.toThrow(REFUSED);
    await expect(client.getPrompt(PROMPT)).rejects.toThrow(REFUSED);
    await expect(client.complete(PROMPT_REF)).rejects.toThrow(REFUSED);
    await expect(client.complete(TEMPLATE_REF)).rejects.toThrow(REFUSED);
    await expect(client.subscribeResource({ uri: README })).rejects.toThrow(REFUSED);
    expect(notes.served).toEqual({ reads: 0, prompts: 0, completions: 0 });

    const told: string[] = [];
    client.setNotificationHandler('notifications/resources/list_changed', () => void told.push('resources'));
    client.setNotificationHandler('notifications/prompts/list_changed', () => void told.push('prompts'));
    use(await rig.token({ sub: 'ann', scope: `${RECORDS} ${NOTES}` }));
    expect((await client.readResource({ uri: README })).contents[0]).toMatchObject({ text: 'private notes' });
    expect((await client.getPrompt(PROMPT)).messages).toHaveLength(1);
    expect((await client.complete(PROMPT_REF)).completion.values).toEqual(['n1', 'n2']);
    expect((await client.complete(TEMPLATE_REF)).completion.values).toEqual(['n1', 'n2']);
    await client.subscribeResource({ uri: README });
    // Its lists grew with the token: its client is told, and lists them now.
    await expect.poll(() => told.sort()).toEqual(['prompts', 'resources']);
    expect(await resourceUris(client)).toEqual([PLANNER_STATS_URI, FEED, README].sort());
    expect(await templateUris(client)).toEqual(['notes://note/{id}']);
    expect(await promptNames(client)).toEqual(['notes__summarize']);
  });

  it('a 2025 session on the wire: the 403 challenge names the resource or prompt and the scope, never the token', async () => {
    const bearer = await rig.token({ sub: 'wire', scope: RECORDS });
    const opened = await rig.post({ authorization: `Bearer ${bearer}` }, INITIALIZE);
    const session = opened.headers.get('mcp-session-id')!;
    await opened.body?.cancel();
    const headers = {
      authorization: `Bearer ${bearer}`,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-06-18',
    };
    const cases = [
      { method: 'resources/read', params: { uri: README }, what: `resource ${README}` },
      { method: 'resources/subscribe', params: { uri: README }, what: `resource ${README}` },
      { method: 'prompts/get', params: PROMPT, what: 'prompt notes__summarize' },
      { method: 'completion/complete', params: TEMPLATE_REF, what: 'resource notes://note/{id}' },
    ];
    for (const [at, { method, params, what }] of cases.entries()) {
      const response = await rig.post(
        headers,
        JSON.stringify({ jsonrpc: '2.0', id: 40 + at, method, params }),
      );
      const text = await response.text();
      expect(response.status, method).toBe(403);
      expect(response.headers.get('www-authenticate')).toBe(challenge(what));
      const body = JSON.parse(text) as { id: unknown; error: { message: string } };
      expect(body.id).toBe(40 + at);
      expect(body.error.message).toContain(`insufficient scope: ${what} needs the scope "${NOTES}"`);
      expect(text).not.toContain(bearer);
    }
    // A URI no header may carry (a line break, a character past ASCII) is still the 403, its description cleaned.
    const odd = await rig.post(
      headers,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 49,
        method: 'resources/read',
        params: { uri: 'notes://a\r\nb/é😀' },
      }),
    );
    expect(odd.status).toBe(403);
    expect(odd.headers.get('www-authenticate')).toBe(challenge('resource notes://a??b/??'));
    expect(((await odd.json()) as { error: { message: string } }).error.message).toContain(
      'resource notes://a\r\nb/é😀 needs',
    );
    // Unguarded requests on the same session still go through: its own resource, the records tools.
    const stats = await rig.post(
      headers,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 50,
        method: 'resources/read',
        params: { uri: PLANNER_STATS_URI },
      }),
    );
    expect(stats.status).toBe(200);
    await stats.body?.cancel();
  });

  it('a 2026-07-28 client: private lists without them, the 403 on read, get, completion and listen; then the step-up', async () => {
    const bearer = await rig.token({ sub: 'bo', scope: RECORDS });
    const { client, use } = await rig.connectSwappable(bearer, 'modern');
    expect(client.getProtocolEra()).toBe('modern');
    expect(await resourceUris(client)).toEqual([PLANNER_STATS_URI, FEED].sort());
    expect(await promptNames(client)).toEqual([]);
    expect(await templateUris(client)).toEqual([]);

    const auth = { headers: { authorization: `Bearer ${bearer}` } };
    for (const method of ['resources/list', 'resources/templates/list', 'prompts/list']) {
      const listed = await modernPost(rig.http.url, method, {}, auth);
      expect(listed.response?.result, method).toMatchObject({ cacheScope: 'private' });
    }
    const refusals = [
      { method: 'resources/read', params: { uri: README }, what: `resource ${README}` },
      { method: 'prompts/get', params: PROMPT, what: 'prompt notes__summarize' },
      { method: 'completion/complete', params: PROMPT_REF, what: 'prompt notes__summarize' },
      {
        method: 'subscriptions/listen',
        params: { notifications: { resourceSubscriptions: [PLANNER_STATS_URI, README] } },
        what: `resource ${README}`,
      },
    ];
    for (const { method, params, what } of refusals) {
      const wire = await modernPost(rig.http.url, method, params, { id: 60, ...auth });
      expect(wire.status, method).toBe(403);
      expect(wire.headers['www-authenticate']).toBe(challenge(what));
      expect(wire.response?.error?.message).toContain(`${what} needs the scope "${NOTES}"`);
    }
    // A listen stream for what the token may read opens as usual.
    const open = await modernPost(
      rig.http.url,
      'subscriptions/listen',
      { notifications: { resourceSubscriptions: [PLANNER_STATS_URI] } },
      { ...auth, maxMessages: 1, readTimeoutMs: 2_000 },
    );
    expect(open.status).toBe(200);
    expect(open.messages[0]?.method).toBe('notifications/subscriptions/acknowledged');

    await expect(client.readResource({ uri: README })).rejects.toThrow(REFUSED);
    use(await rig.token({ sub: 'bo', scope: `${RECORDS} ${NOTES}` }));
    expect((await client.readResource({ uri: README })).contents[0]).toMatchObject({ text: 'private notes' });
    expect((await client.getPrompt(PROMPT)).messages).toHaveLength(1);
    expect(await promptNames(client)).toEqual(['notes__summarize']);
  });

  it('a 2025 session whose new token may no longer read a resource stops hearing of its updates', async () => {
    const { client, use } = await rig.connectSwappable(
      await rig.token({ sub: 'dee', scope: `${RECORDS} ${NOTES}` }),
    );
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: README });
    await client.subscribeResource({ uri: FEED });
    notes.update('readme');
    await expect.poll(() => updated).toEqual([README]);

    use(await rig.token({ sub: 'dee', scope: RECORDS }));
    await client.listResources();
    notes.update('readme');
    feed.update('feed');
    // The feed's update comes after the notes' on the same stream: by then the notes' would have come too.
    await expect.poll(() => updated).toEqual([README, FEED]);
  });

  it('a token with the scope is listed and served them from the start', async () => {
    const client = await rig.connect(await rig.token({ sub: 'cy', scope: NOTES }));
    expect(await resourceUris(client)).toEqual([PLANNER_STATS_URI, FEED, README].sort());
    expect(await promptNames(client)).toEqual(['notes__summarize']);
    expect((await client.readResource({ uri: 'notes://note/n7' })).contents[0]).toMatchObject({
      uri: 'notes://note/n7',
    });
  });

  it('over stdio the same host lists and serves them: no token, no guard', async () => {
    const answers = await exchangeOverStdio(rig.host, [
      { method: 'resources/list', params: {} },
      { method: 'resources/read', params: { uri: README } },
    ]);
    expect(answers.get(2)?.result?.resources?.map((r) => r.uri)).toContain(README);
    expect(answers.get(3)?.result?.contents).toHaveLength(1);
  });
});

describe('which rules guard a plugin’s resources and prompts', () => {
  const GH_AND_JIRA = [{ name: 'gh__get_issue' }, { name: 'gh__merge_pr' }, { name: 'jira__search' }];
  const rulesOf = (lines: string) => configWith(lines).auth!.toolScopes!;
  /** A guard over plugins named by their prefix (`gh://…`, `gh__…`); `docs` has resources but no tools. */
  const guardOf = (lines: string, tools: () => readonly { name: string }[] = () => GH_AND_JIRA) => {
    const guard = createCatalogScopeGuard(rulesOf(lines), {
      listed: tools,
      pluginOf: (tool) => tool.split('__')[0],
      ownerOfUri: (uri) => uri.split('://')[0],
      ownerOfPrompt: (name) => name.split('__')[0],
      isBuiltin: (uri) => uri === PLANNER_STATS_URI,
    });
    return (plugin: string) => {
      const byUri = guard.resource(`${plugin}://thing`);
      expect(guard.prompt(`${plugin}__prompt`)).toEqual(byUri);
      return byUri;
    };
  };

  it('a glob matching every tool of the plugin gives its read scope; one matching only some gives none', () => {
    const scopes = guardOf(
      `"gh__*" = { read = "repo:read", write = "repo:write" }\n"gh__merge_*" = "repo:merge"\n`,
    );
    expect(scopes('gh')).toEqual(['repo:read']);
    expect(scopes('jira')).toEqual([]);
  });

  it('"*" guards every plugin, one without tools too, but not Foresight’s own resources; a write-only rule guards no reading', () => {
    const rules = rulesOf(`"*" = "mcp"\n"jira__*" = { write = "jira:write" }\n`);
    const scopes = guardOf(`"*" = "mcp"\n"jira__*" = { write = "jira:write" }\n`);
    expect(scopes('gh')).toEqual(['mcp']);
    expect(scopes('jira')).toEqual(['mcp']);
    expect(scopes('docs')).toEqual(['mcp']);
    const listed = GH_AND_JIRA.map(({ name }) => ({ name, plugin: name.split('__')[0]! }));
    expect(pluginReadScopes(rules, listed).withoutTools).toEqual(['mcp']);
    const guard = createCatalogScopeGuard(rules, {
      listed: () => GH_AND_JIRA,
      pluginOf: () => 'gh',
      ownerOfUri: () => 'foresight',
      ownerOfPrompt: () => undefined,
      isBuiltin: (uri) => uri === PLANNER_STATS_URI,
    });
    expect(guard.resource(PLANNER_STATS_URI)).toEqual([]);
    expect(guard.prompt('nobody__prompt')).toEqual([]);
  });

  it('a plugin without tools is guarded only by the globs that match every listed tool', () => {
    const scopes = guardOf(`"gh__*" = "repo:read"\n"*__*" = "any"\n`);
    expect(scopes('docs')).toEqual(['any']);
    expect(scopes('gh')).toEqual(['repo:read', 'any']);
  });

  it('the challenge carries only visible ASCII, whatever name the client sent; the message keeps it', () => {
    const { challenge: header, message } = stepUpAnswer(METADATA_URL, {
      id: 1,
      kind: 'tool',
      name: 'x\r\ny"é',
      needed: ['s'],
      missing: ['s'],
    });
    expect(header).toBe(
      `Bearer error="insufficient_scope", error_description="x??y\\"? needs scope s", scope="s", resource_metadata="${METADATA_URL}"`,
    );
    expect(message).toContain('tool x\r\ny"é needs the scope "s"');
  });

  it('follows the tool list, and a plugin whose tools all go keeps the scopes they last gave', () => {
    let tools: readonly { name: string }[] = GH_AND_JIRA;
    const scopes = guardOf(`"gh__*" = "repo:read"\n"jira__*" = "jira:read"\n`, () => tools);
    expect(scopes('gh')).toEqual(['repo:read']);
    tools = [...GH_AND_JIRA, { name: 'gh__other' }];
    expect(scopes('gh')).toEqual(['repo:read']);
    // gh's upstream is reconnecting: its tools are away, its resources stay guarded.
    tools = [{ name: 'jira__search' }, { name: 'wiki__page' }];
    expect(scopes('gh')).toEqual(['repo:read']);
    expect(scopes('jira')).toEqual(['jira:read']);
  });
});
