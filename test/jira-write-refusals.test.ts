// A write Jira refuses reloads the project metadata only when the refusal names a field or an option, and refusals
// in a row start one reload between them, not one each.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RequestContext } from '../src/contract/index.js';
import { createJiraClient } from '../src/plugins/jira/client.js';
import { createIssueWriteTools } from '../src/plugins/jira/issue-writes.js';
import type { MetadataStore } from '../src/plugins/jira/metadata.js';
import { JiraOptionsSchema, jiraSettings } from '../src/plugins/jira/options.js';
import { type FakeJira, type FakeReply, startFakeJira } from './support/fake-jira.js';
import { EMAIL, TOKEN, authHeader } from './support/fake-jira-harness.js';

let fake: FakeJira;
beforeEach(async () => {
  fake = await startFakeJira();
  fake.expectAuth('authorization', authHeader('cloud'));
});
afterEach(async () => fake.close());

/** The write tools over the real client, with a metadata store whose reloads the test counts and settles. */
function writeTools() {
  const settings = jiraSettings(
    JiraOptionsSchema.parse({
      base_url: fake.url,
      flavor: 'cloud',
      email_env: 'E',
      token_env: 'T',
      projects: ['PROJ'],
      retries: 0,
    }),
    { E: EMAIL, T: TOKEN },
  );
  const reloads: (() => void)[] = [];
  const metadata = {
    current: () => undefined,
    refresh: () => new Promise<void>((resolve) => reloads.push(resolve)),
  } as unknown as MetadataStore;
  const tools = createIssueWriteTools({ client: createJiraClient(settings), settings, metadata }, () =>
    Promise.reject(new Error('no sprints here')),
  );
  const ctx = { signal: new AbortController().signal, timeLeftMs: () => 30_000 } as unknown as RequestContext;
  const create = () =>
    tools.create_issue({ title: 'x' }, ctx).then(
      () => 'created',
      (error: unknown) => (error as Error).message,
    );
  return { reloads, create };
}

const FIELD_400: FakeReply = {
  status: 400,
  body: { errorMessages: [], errors: { customfield_10100: "Option id '2' is not valid" } },
};

describe('metadata reload on a refused write', () => {
  it('starts one reload for refusals in a row, and another only once it has settled', async () => {
    fake.route('POST', '/rest/api/3/issue', FIELD_400);
    const { reloads, create } = writeTools();
    const messages = await Promise.all([create(), create(), create()]);
    expect(messages.every((m) => m.includes("customfield_10100: Option id '2' is not valid"))).toBe(true);
    expect(fake.sent('POST', '/rest/api/3/issue')[0]?.body).toEqual({
      fields: { project: { key: 'PROJ' }, issuetype: { name: 'Task' }, summary: 'x' },
    });
    expect(reloads).toHaveLength(1);
    await create();
    expect(reloads).toHaveLength(1);
    reloads[0]?.();
    await Promise.resolve();
    await create();
    expect(reloads).toHaveLength(2);
  });

  it.each([
    [
      'a field named in errorMessages',
      400,
      { errorMessages: ["Field 'customfield_10042' cannot be set."] },
      1,
    ],
    ['an option named in errorMessages', 400, { errorMessages: ['The option "Sev9" is not valid.'] }, 1],
    ['a 400 about no field', 400, { errorMessages: ['The issue could not be created.'], errors: {} }, 0],
    ['a 401', 401, { errorMessages: ['You are not authenticated.'], errors: {} }, 0],
    ['a 403', 403, { errorMessages: ['No permission to create.'], errors: { project: 'x' } }, 0],
    ['a 404', 404, { errorMessages: ['No project.'], errors: {} }, 0],
  ])('on %s (%i %j): %i reload(s)', async (_what, status, body, expected) => {
    fake.route('POST', '/rest/api/3/issue', { status, body });
    const { reloads, create } = writeTools();
    expect(await create()).not.toBe('created');
    expect(fake.sent('POST', '/rest/api/3/issue')).toHaveLength(1);
    expect(reloads).toHaveLength(expected);
  });
});
