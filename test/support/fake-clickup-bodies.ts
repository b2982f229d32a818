// ClickUp API v2 bodies (lists, statuses, custom fields of every type, tasks, comments, members), field by field
// as ClickUp's API reference gives them: GET /list/{id}, /list/{id}/field, /list/{id}/member, /task/{id}, …

export type Body = Record<string, unknown>;

export const TEAM_ID = '9011234080';
export const LIST_ID = '901234567';
export const OTHER_LIST_ID = '901234999';
export const TIME_MS = '1704381106176';

export function member(id: number, username: string, email = `${username.toLowerCase()}@example.com`): Body {
  return {
    id,
    username,
    email,
    color: '#7b68ee',
    initials: username.slice(0, 2).toUpperCase(),
    profilePicture: null,
    profileInfo: {
      display_profile: null,
      verified_ambassador: null,
      verified_consultant: null,
      top_tier_user: null,
    },
  };
}

export function status(name: string, type: 'open' | 'custom' | 'done' | 'closed', orderindex: number): Body {
  return { id: `p${LIST_ID}_${name.replace(/\s/g, '')}`, status: name, orderindex, color: '#d3d3d3', type };
}

export const STATUSES = [
  status('to do', 'open', 0),
  status('in progress', 'custom', 1),
  status('review', 'custom', 2),
  status('complete', 'closed', 3),
];

export function list(id: string, name: string, statuses: Body[] = STATUSES): Body {
  return {
    id,
    name,
    orderindex: 1,
    content: '',
    status: null,
    priority: null,
    assignee: null,
    task_count: 3,
    due_date: null,
    start_date: null,
    folder: { id: '456', name: 'Product', hidden: false, access: true },
    space: { id: '789', name: 'Engineering', access: true },
    archived: false,
    override_statuses: true,
    statuses,
    permission_level: 'create',
  };
}

/** A custom field definition, as Get Accessible Custom Fields answers it. */
export function field(id: string, name: string, type: string, typeConfig: Body = {}, extra: Body = {}): Body {
  return {
    id,
    name,
    type,
    type_config: typeConfig,
    date_created: '1577378759142',
    hide_from_guests: false,
    required: false,
    ...extra,
  };
}

export const dropDownOption = (id: string, name: string, orderindex: number): Body => ({
  id,
  name,
  color: '#e50000',
  orderindex,
});
export const labelOption = (id: string, label: string): Body => ({ id, label, color: '#800000' });

/** One field of every type the plugin maps, with a non-ASCII name among them. */
export const FIELDS = {
  severity: field('f-sev', 'Severity', 'drop_down', {
    default: 0,
    placeholder: null,
    new_drop_down: true,
    options: [
      dropDownOption('opt-crit', 'Critical', 0),
      dropDownOption('opt-high', 'High', 1),
      dropDownOption('opt-med', 'Medium', 2),
      dropDownOption('opt-low', 'Low', 3),
    ],
  }),
  areas: field('f-areas', 'Areas', 'labels', {
    options: [labelOption('lab-ui', 'UI'), labelOption('lab-api', 'API')],
  }),
  estimate: field('f-est', 'Estimate', 'number', {}),
  budget: field('f-budget', 'Budget', 'currency', { precision: 2, currency_type: 'USD', default: null }),
  approved: field('f-ok', 'Approved', 'checkbox', {}),
  launch: field('f-launch', 'Launch', 'date', {}),
  notes: field('f-notes', 'Notes', 'text', {}),
  code: field('f-code', 'Code', 'short_text', {}),
  spec: field('f-spec', 'Spec', 'url', {}),
  contact: field('f-mail', 'Contact', 'email', {}),
  phone: field('f-phone', 'Phone', 'phone', {}),
  rating: field('f-rate', 'Rating', 'emoji', { code_point: '2b50', count: 5 }),
  reviewers: field('f-rev', 'Reviewers', 'users', {
    single_user: false,
    include_groups: false,
    include_guests: true,
    include_team_members: true,
  }),
  related: field('f-rel', 'Related', 'tasks', {}),
  office: field('f-loc', 'Office', 'location', {}),
  progress: field('f-prog', 'Progress', 'manual_progress', { method: 'manual', start: 0, end: 100 }),
  auto: field('f-auto', 'Done ratio', 'automatic_progress', { method: 'subtasks' }),
  priorityRu: field('f-ru', 'Приоритет', 'drop_down', {
    options: [dropDownOption('opt-ru-1', 'Высокий', 0), dropDownOption('opt-ru-2', 'Низкий', 1)],
  }),
} satisfies Record<string, Body>;

export const MEMBERS = [member(183, 'Ann Lee'), member(184, 'Bo Chen')];

export function task(id: string, overrides: Body = {}): Body {
  return {
    id,
    custom_id: null,
    custom_item_id: 0,
    name: `Task ${id}`,
    text_content: 'Plain text',
    description: 'Plain text',
    markdown_description: '**Plain** text',
    status: { id: STATUSES[0]?.id, status: 'to do', color: '#d3d3d3', orderindex: 0, type: 'open' },
    orderindex: '1.00000000000000000000000000000000',
    date_created: TIME_MS,
    date_updated: TIME_MS,
    date_closed: null,
    date_done: null,
    archived: false,
    creator: {
      id: 183,
      username: 'Ann Lee',
      color: '#827718',
      email: 'ann lee@example.com',
      profilePicture: null,
    },
    assignees: [
      {
        id: 184,
        username: 'Bo Chen',
        color: '#7b68ee',
        initials: 'BC',
        email: 'bo chen@example.com',
        profilePicture: null,
      },
    ],
    group_assignees: [],
    watchers: [],
    checklists: [],
    tags: [{ name: 'backend', tag_fg: '#800000', tag_bg: '#800000', creator: 183 }],
    parent: null,
    top_level_parent: null,
    priority: { color: '#ffcc00', id: '2', orderindex: '2', priority: 'high' },
    due_date: '1735689600000',
    start_date: null,
    points: null,
    time_estimate: null,
    time_spent: 0,
    custom_fields: [
      { ...FIELDS.severity, value: 1 },
      { ...FIELDS.estimate, value: '8' },
    ],
    dependencies: [],
    linked_tasks: [],
    locations: [],
    team_id: TEAM_ID,
    url: `https://app.clickup.com/t/${id}`,
    sharing: { public: false },
    permission_level: 'create',
    list: { id: LIST_ID, name: 'Backlog', access: true },
    project: { id: '456', name: 'Product', hidden: false, access: true },
    folder: { id: '456', name: 'Product', hidden: false, access: true },
    space: { id: '789' },
    ...overrides,
  };
}

export function comment(id: string, text: string, dateMs: number, user = member(183, 'Ann Lee')): Body {
  return {
    id,
    comment: [{ text }],
    comment_text: text,
    user,
    resolved: false,
    assignee: null,
    assigned_by: null,
    reactions: [],
    date: String(dateMs),
    reply_count: 0,
  };
}

/** GET /team: the workspaces the token may see, each with its members as { user }. */
export function teams(members: Body[] = [...MEMBERS, member(185, 'Cy Diaz')]): Body {
  return {
    teams: [
      {
        id: TEAM_ID,
        name: 'Acme',
        color: '#536cfe',
        avatar: null,
        members: members.map((user) => ({ user: { ...user, role: 3 }, invited_by: null })),
      },
    ],
  };
}
