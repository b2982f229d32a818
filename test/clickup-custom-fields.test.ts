// Custom fields on the way out: each cf_ parameter mapped to the exact value ClickUp documents for its type,
// on create (custom_fields in the body) and on update (Set Custom Field Value), and bad values refused.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIELDS, LIST_ID, MEMBERS, task } from './support/fake-clickup-bodies.js';
import { type ClickUpRig, startClickUpRig, structured, text } from './support/fake-clickup.js';

let rig: ClickUpRig;
beforeEach(async () => {
  rig = await startClickUpRig();
  rig.fake.route('POST', '/list/:list/task', { status: 200, body: task('86new') });
  rig.fake.route('GET', '/task/:id', (_r, p) => ({
    status: 200,
    body: task(p.id ?? '', {
      custom_fields: [
        { ...FIELDS.reviewers, value: [MEMBERS[1]] },
        { ...FIELDS.related, value: [{ id: 'aaa111' }] },
      ],
    }),
  }));
  rig.fake.route('PUT', '/task/:id', (_r, p) => ({ status: 200, body: task(p.id ?? '') }));
  rig.fake.route('POST', '/task/:id/field/:field', { status: 200, body: {} });
  rig.fake.route('GET', '/user', {
    status: 200,
    body: { user: { ...MEMBERS[0], timezone: 'America/New_York' } },
  });
  await rig.metadataLoaded();
});

/** 4 am on `day` in New York (UTC-5 in winter, UTC-4 in summer): ClickUp's instant for a date without a time. */
const fourAmNewYork = (day: string, utcOffsetH: number) =>
  Date.parse(`${day}T04:00:00Z`) - utcOffsetH * 3_600_000;
afterEach(async () => {
  await rig.close();
});

const everyType = {
  cf_severity: 'High',
  cf_areas: ['UI', 'API'],
  cf_estimate: 8,
  cf_budget: 1200.5,
  cf_approved: true,
  cf_launch: '2025-03-01',
  cf_notes: 'Long text',
  cf_code: 'AB-1',
  cf_spec: 'https://example.com/spec',
  cf_contact: 'ops@example.com',
  cf_phone: '+1 201 555 0123',
  cf_rating: 4,
  cf_office: { lat: 52.52, lng: 13.405, formatted_address: 'Berlin, Germany' },
  cf_progress: 40,
  cf_prioritet: 'Высокий',
};

describe('create_issue with custom fields', () => {
  it("sends each value in its type's format in custom_fields, and id sets through the field endpoint", async () => {
    const result = await rig.call('create_issue', {
      title: 'Crash',
      body: '**Steps**',
      priority: 'urgent',
      status: 'in progress',
      due_date: '2025-01-01',
      labels: ['backend'],
      assignees: ['Ann Lee', 'bo chen@example.com'],
      ...everyType,
      cf_reviewers: ['Bo Chen', 183],
      cf_related: ['aaa111', 'bbb222'],
    });
    expect(result.isError, text(result)).toBeFalsy();
    const [sent] = rig.fake.sent('POST', `/list/${LIST_ID}/task`);
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.body).toEqual({
      name: 'Crash',
      markdown_content: '**Steps**',
      status: 'in progress',
      priority: 1,
      due_date: fourAmNewYork('2025-01-01', -5),
      due_date_time: false,
      assignees: [183, 184],
      tags: ['backend'],
      custom_fields: [
        { id: 'f-sev', value: 'opt-high' },
        { id: 'f-areas', value: ['lab-ui', 'lab-api'] },
        { id: 'f-est', value: 8 },
        { id: 'f-budget', value: 1200.5 },
        { id: 'f-ok', value: true },
        { id: 'f-launch', value: fourAmNewYork('2025-03-01', -5) },
        { id: 'f-notes', value: 'Long text' },
        { id: 'f-code', value: 'AB-1' },
        { id: 'f-spec', value: 'https://example.com/spec' },
        { id: 'f-mail', value: 'ops@example.com' },
        { id: 'f-phone', value: '+1 201 555 0123' },
        { id: 'f-rate', value: 4 },
        {
          id: 'f-loc',
          value: { location: { lat: 52.52, lng: 13.405 }, formatted_address: 'Berlin, Germany' },
        },
        { id: 'f-prog', value: { current: 40 } },
        { id: 'f-ru', value: 'opt-ru-1' },
      ],
    });
    // People and task relations are id sets: added after the task exists, against its current value.
    expect(rig.fake.sent('POST', '/task/86new/field/f-rev')[0]?.body).toEqual({
      value: { add: [184, 183], rem: [] },
    });
    expect(rig.fake.sent('POST', '/task/86new/field/f-rel')[0]?.body).toEqual({
      value: { add: ['aaa111', 'bbb222'], rem: [] },
    });
    expect(structured(result)).toMatchObject({ kind: 'issue', item: { key: '86new' } });
    expect(text(result)).toContain('Created 86new');
  });

  it('sets a date-time field after create with value_options.time, which create_issue cannot carry', async () => {
    const result = await rig.call('create_issue', {
      title: 'Launch',
      cf_launch: '2025-03-01T09:30:00Z',
      cf_severity: 'High',
    });
    expect(result.isError, text(result)).toBeFalsy();
    // Create Task's custom_fields items are {id, value} only: the time option cannot ride along.
    expect(rig.fake.sent('POST', `/list/${LIST_ID}/task`)[0]?.body).toEqual({
      name: 'Launch',
      custom_fields: [{ id: 'f-sev', value: 'opt-high' }],
    });
    const set = rig.fake.sent('POST', '/task/86new/field/f-launch');
    expect(set.map((r) => r.body)).toEqual([
      { value: Date.parse('2025-03-01T09:30:00Z'), value_options: { time: true } },
    ]);
    expect(set[0]?.headers['content-type']).toBe('application/json');
    expect(rig.fake.sent('GET', '/task/86new')).toHaveLength(1);
  });

  it('refuses a bad value, listing what is allowed, before any request', async () => {
    const before = rig.fake.requests.length;
    // What the listed schema says is refused by the host's check, in the agent's names; the rest by the enricher.
    const cases: [Record<string, unknown>, string][] = [
      [
        { cf_severity: 'Hgh' },
        'parameter "cf_severity" is "Hgh"; allowed: "Critical", "High", "Medium", "Low"',
      ],
      [{ cf_areas: ['UI', 'Web'] }, 'parameter "cf_areas.1" is "Web"; allowed: "UI", "API"'],
      [{ cf_launch: 'next week' }, 'cf_launch: "next week" is not a date'],
      [{ cf_spec: 'example.com' }, 'cf_spec: "example.com" is not a web address'],
      [{ cf_contact: 'nobody' }, 'cf_contact: "nobody" is not an email address'],
      [{ cf_phone: '555 0123' }, 'cf_phone: "555 0123" is not a phone number with its country code'],
      [{ cf_rating: 9 }, 'parameter "cf_rating" must be <= 5 (got 9)'],
      [
        { cf_reviewers: ['Zed'] },
        'cf_reviewers: "Zed" is not a member of the list; members: Ann Lee, Bo Chen',
      ],
      [
        { priority: 'asap' },
        'parameter "priority" is "asap"; allowed: "urgent", "high", "normal", "low", 1, 2, 3, 4',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await rig.call('create_issue', { title: 'x', ...args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(text(result)).toContain(message);
    }
    expect(rig.fake.requests.length).toBe(before);
  });
});

describe('dates without a time', () => {
  it("go out as 4 am in the token user's time zone, as ClickUp keeps them, across a DST change", async () => {
    const result = await rig.call('update_issue', {
      key: '86a1b2c3d',
      due_date: '2025-07-01',
      cf_launch: '2025-03-01',
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(rig.fake.sent('PUT', '/task/86a1b2c3d')[0]?.body).toEqual({
      due_date: Date.parse('2025-07-01T08:00:00Z'),
      due_date_time: false,
    });
    expect(rig.fake.sent('POST', '/task/86a1b2c3d/field/f-launch')[0]?.body).toEqual({
      value: Date.parse('2025-03-01T09:00:00Z'),
      value_options: { time: false },
    });
    // The user's zone is read once per instance, and not at all for a date-time (the health probe at start
    // read /user before any call).
    await rig.call('update_issue', { key: '86a1b2c3d', due_date: '2025-07-02' });
    await rig.call('update_issue', { key: '86a1b2c3d', cf_launch: '2025-03-01T09:30:00Z' });
    expect(rig.fake.sent('GET', '/user')).toHaveLength(2);
  });

  it('fall on noon UTC when the user has no time zone ClickUp names', async () => {
    await rig.close();
    rig = await startClickUpRig();
    rig.fake.route('GET', '/user', { status: 200, body: { user: MEMBERS[0] } });
    rig.fake.route('POST', '/list/:list/task', { status: 200, body: task('86new') });
    await rig.metadataLoaded();
    await rig.call('create_issue', { title: 'x', due_date: '2025-01-01' });
    expect(rig.fake.sent('POST', `/list/${LIST_ID}/task`)[0]?.body).toMatchObject({
      due_date: Date.parse('2025-01-01T12:00:00Z'),
      due_date_time: false,
    });
  });
});

describe('update_issue with custom fields', () => {
  it('sets each field with Set Custom Field Value, a date with its time option, people as {add, rem}', async () => {
    const result = await rig.call('update_issue', {
      key: '86a1b2c3d',
      cf_severity: 'Low',
      cf_launch: '2025-03-01T09:30:00Z',
      cf_reviewers: ['Ann Lee'],
      cf_approved: false,
      priority: 4,
    });
    expect(result.isError, text(result)).toBeFalsy();
    expect(rig.fake.sent('PUT', '/task/86a1b2c3d')[0]?.body).toEqual({ priority: 4 });
    const set = (id: string) => rig.fake.sent('POST', `/task/86a1b2c3d/field/${id}`)[0]?.body;
    expect(set('f-sev')).toEqual({ value: 'opt-low' });
    expect(set('f-launch')).toEqual({
      value: Date.parse('2025-03-01T09:30:00Z'),
      value_options: { time: true },
    });
    expect(set('f-ok')).toEqual({ value: false });
    // The task has Bo Chen (184); the list given replaces it.
    expect(set('f-rev')).toEqual({ value: { add: [183], rem: [184] } });
  });
});

// ClickUp's "Set Custom Field Value" takes a drop_down's option id (Create Task's custom_fields the same); a
// task's own value is the option's orderindex, which is what a reader sees, not what a writer sends.
describe('a drop_down field', () => {
  it("is sent as the option's id on create and on update, never its orderindex", async () => {
    const high = (FIELDS.severity.type_config as { options: { id: string; orderindex: number }[] })
      .options[1];
    expect(high).toMatchObject({ id: 'opt-high', orderindex: 1 });
    const created = await rig.call('create_issue', { title: 'Crash', cf_severity: 'High' });
    expect(created.isError, text(created)).toBeFalsy();
    const body = rig.fake.sent('POST', `/list/${LIST_ID}/task`)[0]?.body as { custom_fields: unknown[] };
    expect(body.custom_fields).toEqual([{ id: 'f-sev', value: 'opt-high' }]);
    const updated = await rig.call('update_issue', { key: '86a1b2c3d', cf_severity: 'Critical' });
    expect(updated.isError, text(updated)).toBeFalsy();
    expect(rig.fake.sent('POST', '/task/86a1b2c3d/field/f-sev')[0]?.body).toEqual({ value: 'opt-crit' });
  });
});
