// The tracker metadata shapes (statuses, custom fields, users, sprints) in the markdown and compact formats.
import { describe, expect, it } from 'vitest';
import type { ShapedResult } from '../src/contract/index.js';
import { renderStructured } from '../src/format/index.js';

const statuses: ShapedResult = {
  kind: 'status_list',
  items: [
    { name: 'To Do', category: 'todo' },
    { name: 'In Review', category: 'in_progress', transition: 'Send to review' },
  ],
};
const fields: ShapedResult = {
  kind: 'field_list',
  items: [
    {
      id: 'customfield_10020',
      name: 'Sévérité',
      type: 'option',
      param: 'cf_severite',
      options: ['Critical', 'High'],
      required: true,
    },
  ],
};
const users: ShapedResult = {
  kind: 'user_list',
  items: [
    { id: '5b10a2844c20165700ede21g', name: 'Ada Lovelace', email: 'ada@example.com' },
    { id: 'x', name: 'Old', active: false },
  ],
};
const sprints: ShapedResult = {
  kind: 'sprint_list',
  items: [
    {
      id: '37',
      name: 'Sprint 12',
      state: 'active',
      startAt: '2026-11-20T09:00:00Z',
      endAt: '2026-12-04T09:00:00Z',
      goal: 'Ship ADF',
    },
  ],
};

/** A compact table line: cells split by tabs. */
const row = (...cells: string[]) => cells.join('\t');

describe('tracker metadata shapes', () => {
  it('lists statuses with their category and the transition that reaches them', () => {
    expect(renderStructured(statuses, 'compact').text).toBe(
      [
        'Statuses (2):',
        row('status', 'category', 'transition'),
        row('To Do', 'todo', ''),
        row('In Review', 'in_progress', 'Send to review'),
      ].join('\n'),
    );
    expect(renderStructured(statuses, 'markdown').text).toContain(
      '| In Review | in_progress | Send to review |',
    );
  });

  it('lists custom fields with type, parameter, options and id', () => {
    expect(renderStructured(fields, 'compact').text).toBe(
      [
        'Custom fields (1):',
        row('field', 'type', 'parameter', 'required', 'options', 'id'),
        row('Sévérité', 'option', 'cf_severite', 'yes', 'Critical, High', 'customfield_10020'),
      ].join('\n'),
    );
    expect(renderStructured(fields, 'markdown').text).toContain(
      '| Sévérité | option | cf_severite | yes | Critical, High | customfield_10020 |',
    );
  });

  it('lists users with the id the API takes, and marks inactive ones', () => {
    expect(renderStructured(users, 'compact').text).toBe(
      [
        'Users (2):',
        row('user', 'state', 'email', 'id'),
        row('Ada Lovelace', '', 'ada@example.com', '5b10a2844c20165700ede21g'),
        row('Old', 'inactive', '', 'x'),
      ].join('\n'),
    );
  });

  it('lists sprints with state, dates and goal', () => {
    expect(renderStructured(sprints, 'compact').text).toBe(
      [
        'Sprints (1):',
        row('sprint', 'state', 'id', 'starts', 'ends', 'excerpt'),
        row('Sprint 12', 'active', '37', '2026-11-20', '2026-12-04', 'Ship ADF'),
      ].join('\n'),
    );
    expect(renderStructured(sprints, 'markdown').text).toContain(
      '| Sprint 12 | active | 37 | 2026-11-20 | 2026-12-04 |',
    );
  });
});
