// The gitlab plugin's options, its registration as a built-in kind, and the schemas its enricher fits to GitLab
// and to the project's labels and milestones (with list_changed when they arrive).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../src/config/index.js';
import { BUILTIN_KINDS } from '../src/plugins/index.js';
import gitlab, { GitLabOptionsSchema } from '../src/plugins/gitlab/index.js';
import { gl } from './support/fake-gitlab-bodies.js';
import { type GitLabRig, TOKEN, TOKEN_ENV, startGitLabRig } from './support/fake-gitlab-harness.js';
import { startFakeGitLab } from './support/fake-gitlab.js';
import { connect } from './support/in-memory.js';
import { PATIENCE_MS } from './support/patience.js';
import { pluginContext } from './support/workspace-tree.js';

let rig: GitLabRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

type Properties = Record<string, Record<string, unknown> & { items?: Record<string, unknown> }>;
async function schemas(r: GitLabRig): Promise<Map<string, Properties>> {
  const { tools } = await r.client.listTools();
  return new Map(
    tools.map((t) => [t.name.replace(/^gitlab__/, ''), (t.inputSchema.properties ?? {}) as Properties]),
  );
}

describe('gitlab options', () => {
  it('fills defaults and accepts a path or a numeric id', () => {
    expect(GitLabOptionsSchema.parse({ project: 'group/sub/project' })).toEqual({
      project: 'group/sub/project',
      auth: 'private_token',
      base_url: 'https://gitlab.com',
      metadata_ttl_s: 600,
      retries: 2,
      max_diff_chars: 20_000,
      max_log_kb: 4096,
    });
    expect(GitLabOptionsSchema.safeParse({ project: 42 }).success).toBe(true);
    expect(GitLabOptionsSchema.safeParse({ project: '42' }).success).toBe(true);
    for (const bad of [
      { project: 'justaname' },
      { project: 'a/b', repo: 'x' },
      { project: 'a/b', auth: 'basic' },
    ]) {
      expect(GitLabOptionsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('refuses bad options at build, naming the key', async () => {
    await expect(
      Promise.resolve().then(() => gitlab.build(pluginContext({ project: 'a/b', colour: 'blue' }))),
    ).rejects.toMatchObject({
      code: 'E_CONFIG_INVALID',
      message: expect.stringContaining('colour'),
    });
  });

  it('is the built-in kind "gitlab", mounted from foresight.toml', async () => {
    expect(BUILTIN_KINDS).toContain('gitlab');
    const fake = await startFakeGitLab();
    process.env[TOKEN_ENV] = TOKEN;
    fake.expectAuth('private-token', TOKEN);
    fake.route('GET', '/projects/:project/issues', { status: 200, body: [gl.issue(1)] });
    const text = [
      '[plugins.gl]',
      'use = "gitlab"',
      'project = 42',
      `base_url = "${fake.url}/api/v4/"`,
      `token_env = "${TOKEN_ENV}"`,
      'retries = 0',
      'metadata_ttl_s = 3600',
      '',
    ].join('\n');
    const config = parseConfig(text, 'foresight.toml', '/proj', { [TOKEN_ENV]: TOKEN });
    const connected = await connect({ config });
    try {
      const result = await connected.client.callTool({ name: 'gl__get_issues', arguments: {} });
      expect(result.isError).toBeFalsy();
      // A numeric id goes into the path as is; the /api/v4 the config gave is not doubled.
      expect(fake.requests.map((r) => r.path)).toContain('/api/v4/projects/42/issues');
    } finally {
      await connected.close();
      await fake.close();
    }
    const misspelt = parseConfig(text.replace('project', 'projekt'), 'foresight.toml', '/proj', {
      [TOKEN_ENV]: TOKEN,
    });
    await expect(connect({ config: misspelt })).rejects.toThrow(/projekt/);
  });
});

describe('gitlab schemas', () => {
  it('lists the 16 unified tools, fitted to GitLab', async () => {
    rig = await startGitLabRig();
    const tools = await schemas(rig);
    expect([...tools.keys()].sort()).toEqual(
      [
        'add_issue_comment',
        'create_issue',
        'create_merge_request',
        'create_merge_request_comment',
        'get_issue',
        'get_issue_comments',
        'get_issues',
        'get_job_logs',
        'get_merge_request',
        'get_merge_request_diffs',
        'get_merge_request_discussions',
        'get_merge_requests',
        'get_pipeline',
        'link_issues',
        'update_issue',
        'update_merge_request',
      ].sort(),
    );
    for (const [name, properties] of tools) {
      for (const field of [
        'priority',
        'type',
        'components',
        'points',
        'parent',
        'customFields',
        'line_field',
      ]) {
        expect(Object.keys(properties), `${name} has no ${field}`).not.toContain(field);
      }
    }
    expect(tools.get('get_issues')?.sort?.enum).toEqual(['created', 'updated']);
    expect(tools.get('link_issues')?.link_type).toMatchObject({
      enum: ['relates_to', 'blocks', 'is_blocked_by'],
      default: 'relates_to',
    });
    expect(tools.get('get_job_logs')?.offset).not.toHaveProperty('default');
    expect(tools.get('get_issues')).toHaveProperty('format');
    expect(tools.get('create_issue')).not.toHaveProperty('format');
    const { tools: listed } = await rig.client.listTools();
    expect(listed.find((t) => t.name === 'gitlab__get_issues')?.description).toContain(
      'GitLab project group/sub/project.',
    );
  });

  it("makes the project's labels and milestones enums once they load, and tells the client", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    rig = await startGitLabRig({
      metadata: { labels: ['bug', 'feature'], milestones: [{ id: 11, title: 'v1.0' }], gate },
    });
    const changed = vi.fn();
    rig.client.setNotificationHandler('notifications/tools/list_changed', changed);
    const before = await schemas(rig);
    expect(before.get('create_issue')?.labels?.items).not.toHaveProperty('enum');
    expect(before.get('create_issue')?.milestone).not.toHaveProperty('enum');
    release();
    await vi.waitFor(() => expect(changed).toHaveBeenCalled(), { timeout: PATIENCE_MS, interval: 10 });
    const after = await schemas(rig);
    for (const tool of [
      'get_issues',
      'create_issue',
      'update_issue',
      'get_merge_requests',
      'create_merge_request',
    ]) {
      expect(after.get(tool)?.labels?.items?.enum, tool).toEqual(['bug', 'feature']);
    }
    expect(after.get('create_issue')?.milestone?.enum).toEqual(['v1.0']);
    expect(after.get('update_issue')?.milestone?.enum).toEqual(['v1.0', '']);
    // A label the project lacks is refused before GitLab is asked.
    const result = await rig.call('create_issue', { title: 'x', labels: ['nope'] });
    expect(result.isError).toBe(true);
    expect(rig.fake.sent('POST', '/projects/group%2Fsub%2Fproject/issues')).toHaveLength(0);
  });

  it('aborts a metadata load still in flight at shutdown', async () => {
    const never = new Promise<void>(() => {});
    const started = await startGitLabRig({ metadata: { gate: never } });
    await vi.waitFor(() =>
      expect(started.fake.sent('GET', '/projects/group%2Fsub%2Fproject/labels')).toHaveLength(1),
    );
    const labels = () =>
      started.fake.abandoned.filter((request) =>
        request.path.endsWith('/projects/group%2Fsub%2Fproject/labels'),
      );
    expect(labels()).toEqual([]);
    // The host alone (the fake GitLab still up, still holding the answer): its shutdown hangs up on the request.
    // Without the abort, shutdown would wait on the load until the host's 10 s shutdown deadline and warn of it,
    // and the request would stay open until the fake itself closed.
    await started.connected.close();
    await vi.waitFor(() => expect(labels()).toHaveLength(1), { timeout: PATIENCE_MS, interval: 10 });
    await started.close();
    expect(started.logs.filter((record) => record.level === 'warn')).toEqual([]);
  });

  it('gives the planner a value model for every tool, capped per instance host', async () => {
    rig = await startGitLabRig();
    const host = new URL(rig.fake.url).host;
    const entries = rig.connected.host.plugins.publishedTools();
    const model = (name: string) => {
      const entry = entries.find((e) => e.ref.published === `gitlab__${name}`);
      return entry?.enrichers.map((enricher) => enricher.valueModel?.(entry.ref)).find(Boolean);
    };
    expect(model('get_issues')).toMatchObject({ sideEffect: 'read_only', rateLimitHost: host });
    expect(model('update_issue')).toMatchObject({
      sideEffect: 'mutates_external',
      invalidates: ['gitlab__get_issue', 'gitlab__get_issues'],
    });
    expect(model('get_pipeline')?.followUp.map((l) => l.tool)).toEqual(['gitlab__get_job_logs']);
    const entry = entries.find((e) => e.ref.published === 'gitlab__get_issues');
    expect(entry?.enrichers[0]?.rateLimitHost?.(entry.ref, {})).toBe(host);
  });
});
