// How Jira's refusals reach the agent: 401 and 403 say what to check, 404 names the issue, 400 passes Jira's messages
// and field errors (named as the agent's parameters) through, 429 waits out Retry-After, and no token ever shows.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jira } from './support/fake-jira.js';
import { EMAIL, TOKEN, type JiraRig, fakeClock, startJiraRig, text } from './support/fake-jira-harness.js';

let rig: JiraRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('jira errors', () => {
  it('401: says the credentials were refused, and names the variables to check (not their values)', async () => {
    rig = await startJiraRig();
    rig.fake.expectAuth('authorization', 'Basic something-else');
    const result = await rig.call('get_issue', { key: 'PROJ-7' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(
      /refused the credentials for issue PROJ-7 \(401\); check the email in FORESIGHT_TEST_JIRA_EMAIL and the API token in FORESIGHT_TEST_JIRA_TOKEN: You are not authenticated/,
    );
    expect(text(result)).not.toContain(EMAIL);
  });

  it('401 on Server / Data Center: names the personal access token variable', async () => {
    rig = await startJiraRig({ flavor: 'server' });
    rig.fake.expectAuth('authorization', 'Bearer something-else');
    const result = await rig.call('get_issue', { key: 'PROJ-7' });
    expect(text(result)).toMatch(
      /refused the credentials for issue PROJ-7 \(401\); check the personal access token in FORESIGHT_TEST_JIRA_TOKEN: /,
    );
  });

  it('403: points at the project permissions', async () => {
    rig = await startJiraRig();
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', {
      status: 403,
      body: { errorMessages: ['You do not have the permission to see the specified issue.'], errors: {} },
    });
    const result = await rig.call('get_issue', { key: 'PROJ-7' });
    expect(text(result)).toMatch(
      /denied access to issue PROJ-7 \(403\); check the account's permissions in the project and the token: You do not have the permission/,
    );
  });

  it('404: names the issue', async () => {
    rig = await startJiraRig();
    const result = await rig.call('get_issue', { key: 'PROJ-99' });
    expect(text(result)).toMatch(/issue PROJ-99 was not found on Jira Cloud \(127\.0\.0\.1:\d+\)/);
  });

  it('400: passes errorMessages and field errors through, fields named as parameters', async () => {
    rig = await startJiraRig();
    rig.fake.route('POST', '/rest/api/3/issue', {
      status: 400,
      body: {
        errorMessages: ['The issue could not be created.'],
        errors: {
          customfield_10104: 'Budget must be below 1000.',
          summary: 'You must specify a summary of the issue.',
        },
      },
    });
    const result = await rig.call('create_issue', { title: 'x', cf_budget: 5000 });
    expect(text(result)).toBe(
      'Jira Cloud (' +
        new URL(rig.fake.url).host +
        ') rejected the request for a new issue in PROJ: The issue could not be created.; cf_budget (customfield_10104): Budget must be below 1000.; summary: You must specify a summary of the issue.',
    );
  });

  it('429: waits as long as Retry-After says, then retries', async () => {
    const clock = fakeClock();
    rig = await startJiraRig({ options: { retries: 1 }, clock });
    let calls = 0;
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', () =>
      ++calls === 1
        ? { status: 429, body: { errorMessages: ['Rate limit exceeded.'] }, headers: { 'retry-after': '1' } }
        : { status: 200, body: jira.issue('cloud', 'PROJ-7') },
    );
    const result = await rig.call('get_issue', { key: 'PROJ-7' });
    expect(result.isError, text(result)).toBeFalsy();
    expect(calls).toBe(2);
    expect(clock.sleeps).toEqual([1000]);
  });

  it('429 without Retry-After: backs off 250 ms, then 1 s', async () => {
    const clock = fakeClock();
    rig = await startJiraRig({ options: { retries: 2 }, clock });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', {
      status: 429,
      body: { errorMessages: ['Rate limit exceeded.'] },
    });
    const result = await rig.call('get_issue', { key: 'PROJ-7' });
    expect(text(result)).toMatch(/rate limit reached for issue PROJ-7/);
    expect(rig.sent('GET', '/rest/api/3/issue/PROJ-7')).toHaveLength(3);
    expect(clock.sleeps).toEqual([250, 1000]);
  });

  it('429: a wait longer than a call can hold fails at once and says when to retry', async () => {
    const clock = fakeClock(Date.parse('2024-03-01T10:00:00Z'));
    rig = await startJiraRig({ options: { retries: 2 }, clock });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', {
      status: 429,
      body: { errorMessages: ['Rate limit exceeded.'] },
      headers: { 'retry-after': '120' },
    });
    const result = await rig.call('get_issue', { key: 'PROJ-7' });
    expect(text(result)).toMatch(
      /rate limit reached for issue PROJ-7; it resets at 2024-03-01T10:02:00\.000Z$/,
    );
    expect(rig.sent('GET', '/rest/api/3/issue/PROJ-7')).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("429: a Retry-After that fits the retries but not the call's deadline fails at once", async () => {
    const clock = fakeClock();
    rig = await startJiraRig({ options: { retries: 2 }, deadlines: { callTool: 2500 }, clock });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', {
      status: 429,
      body: { errorMessages: ['Rate limit exceeded.'] },
      headers: { 'retry-after': '3' },
    });
    const result = await rig.call('get_issue', { key: 'PROJ-7' });
    expect(text(result)).toMatch(/rate limit reached for issue PROJ-7; it resets at/);
    expect(rig.sent('GET', '/rest/api/3/issue/PROJ-7')).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("aborts Jira's request at the call's deadline, and says so", async () => {
    rig = await startJiraRig({ deadlines: { callTool: 300 } });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', () => new Promise(() => {}));
    const result = await rig.call('get_issue', { key: 'PROJ-7' });
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('tool "jira__get_issue" did not finish within its deadline of 300 ms');
    await vi.waitFor(() =>
      expect(rig?.fake.abandoned.map((r) => r.path)).toContain('/rest/api/3/issue/PROJ-7'),
    );
  });

  it('never shows the token or the account email, even when Jira echoes them', async () => {
    rig = await startJiraRig();
    rig.fake.route('POST', '/rest/api/3/issue/PROJ-7/comment', {
      status: 400,
      body: {
        errorMessages: [`token ${TOKEN} of ${EMAIL} is not allowed here`],
        errors: { body: `bad ${TOKEN}` },
      },
    });
    const result = await rig.call('add_issue_comment', { key: 'PROJ-7', body: 'hi' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('token [redacted] of [redacted] is not allowed here');
    expect(JSON.stringify(result)).not.toContain(TOKEN);
    expect(JSON.stringify(result)).not.toContain(EMAIL);
    expect(JSON.stringify(rig.logs)).not.toContain(TOKEN);
    expect(JSON.stringify(rig.logs)).not.toContain(EMAIL);
  });

  it('never shows the account email in a 403 or in a failed metadata load', async () => {
    rig = await startJiraRig({
      noWait: true,
      routes: (fake) =>
        fake.route('GET', '/rest/api/3/priority', {
          status: 500,
          body: { errorMessages: [`internal error for ${EMAIL}`] },
        }),
    });
    rig.fake.route('GET', '/rest/api/3/issue/PROJ-7', {
      status: 403,
      body: { errorMessages: [`${EMAIL} may not see PROJ-7`], errors: {} },
    });
    const result = await rig.call('get_issue', { key: 'PROJ-7' });
    expect(text(result)).toContain('[redacted] may not see PROJ-7');
    await vi.waitFor(async () =>
      expect((await rig?.tool('get_issue'))?.description).toMatch(/could not be loaded/),
    );
    const tool = await rig.tool('get_issue');
    expect(tool.description).toContain('internal error for [redacted]');
    expect(JSON.stringify(rig.logs)).not.toContain(EMAIL);
  });
});
