// The projects the jira tests run against: PROJ with a custom field of every kind (and non-ASCII names), OPS with
// fields that share PROJ's names, and the routes that serve their metadata as Jira does.
import { type FakeJira, type Flavor, apiOf, jira } from './fake-jira.js';

const PLUGIN = 'com.atlassian.jira.plugin.system.customfieldtypes:';
const field = jira.createField;

export interface ProjectFixture {
  key: string;
  types: ReturnType<typeof jira.issueType>[];
  /** Create fields by issue type id. */
  fields: Record<string, unknown[]>;
  statuses: ReturnType<typeof jira.status>[];
}

const systemFields = (required: boolean) => [
  field('summary', 'Summary', { type: 'string', system: 'summary' }, { required: true }),
  field('issuetype', 'Issue Type', { type: 'issuetype', system: 'issuetype' }, { required: true }),
  field('project', 'Project', { type: 'project', system: 'project' }, { required: true }),
  field(
    'priority',
    'Priority',
    { type: 'priority', system: 'priority' },
    {
      allowedValues: [
        jira.priority('1', 'Highest'),
        jira.priority('2', 'High'),
        jira.priority('3', 'Medium'),
        jira.priority('4', 'Low'),
        jira.priority('5', 'Lowest'),
      ],
    },
  ),
  field(
    'components',
    'Components',
    { type: 'array', items: 'component', system: 'components' },
    {
      required,
      allowedValues: [jira.component('10000', 'Backend'), jira.component('10001', 'Frontend')],
    },
  ),
  field('labels', 'Labels', { type: 'array', items: 'string', system: 'labels' }),
  field('duedate', 'Due date', { type: 'date', system: 'duedate' }),
  field(
    'fixVersions',
    'Fix versions',
    { type: 'array', items: 'version', system: 'fixVersions' },
    { allowedValues: [jira.version('31', '1.0'), jira.version('32', '2.0')] },
  ),
  field('description', 'Description', { type: 'string', system: 'description' }),
  field('customfield_10020', 'Sprint', {
    type: 'array',
    items: 'json',
    custom: 'com.pyxis.greenhopper.jira:gh-sprint',
  }),
  field('customfield_10016', 'Story point estimate', {
    type: 'number',
    custom: 'com.pyxis.greenhopper.jira.jpo:jpo-custom-field-float',
  }),
];

/** PROJ's custom fields, one of every kind the enricher types. */
export const PROJ_CUSTOM = [
  field(
    'customfield_10100',
    'Severity',
    { type: 'option', custom: `${PLUGIN}select` },
    {
      allowedValues: [
        jira.option('1', 'Critical'),
        jira.option('2', 'High'),
        jira.option('3', 'Medium'),
        jira.option('4', 'Low'),
      ],
    },
  ),
  field(
    'customfield_10101',
    'Platforms',
    { type: 'array', items: 'option', custom: `${PLUGIN}multicheckboxes` },
    {
      allowedValues: [jira.option('11', 'iOS'), jira.option('12', 'Android'), jira.option('13', 'Web')],
    },
  ),
  field('customfield_10102', 'Reviewer', { type: 'user', custom: `${PLUGIN}userpicker` }),
  field('customfield_10103', 'Approvers', {
    type: 'array',
    items: 'user',
    custom: `${PLUGIN}multiuserpicker`,
  }),
  field('customfield_10104', 'Budget', { type: 'number', custom: `${PLUGIN}float` }),
  field('customfield_10105', 'Launch date', { type: 'date', custom: `${PLUGIN}datepicker` }),
  field('customfield_10106', 'Go-live', { type: 'datetime', custom: `${PLUGIN}datetime` }),
  field('customfield_10107', 'Tags', { type: 'array', items: 'string', custom: `${PLUGIN}labels` }),
  field('customfield_10108', 'Notes', { type: 'string', custom: `${PLUGIN}textarea` }),
  field('customfield_10109', 'Short note', { type: 'string', custom: `${PLUGIN}textfield` }),
  field('customfield_10110', 'Docs', { type: 'string', custom: `${PLUGIN}url` }),
  field(
    'customfield_10111',
    'Region',
    { type: 'option-with-child', custom: `${PLUGIN}cascadingselect` },
    {
      allowedValues: [
        jira.option('21', 'Europe', [jira.option('22', 'Germany'), jira.option('23', 'France')]),
        jira.option('24', 'Asia', [jira.option('25', 'Japan')]),
      ],
    },
  ),
  field(
    'customfield_10112',
    'Target version',
    { type: 'version', custom: `${PLUGIN}version` },
    {
      allowedValues: [jira.version('31', '1.0'), jira.version('32', '2.0')],
    },
  ),
  field(
    'customfield_10113',
    'Affected builds',
    { type: 'array', items: 'version', custom: `${PLUGIN}multiversion` },
    {
      allowedValues: [jira.version('31', '1.0'), jira.version('32', '2.0')],
    },
  ),
  field(
    'customfield_10114',
    'Приоритет клиента',
    { type: 'option', custom: `${PLUGIN}select` },
    {
      allowedValues: [jira.option('41', 'Высокий'), jira.option('42', 'Низкий')],
    },
  ),
  field(
    'customfield_10115',
    '优先级',
    { type: 'option', custom: `${PLUGIN}radiobuttons` },
    {
      allowedValues: [jira.option('51', '高'), jira.option('52', '低')],
    },
  ),
];

export const PROJ: ProjectFixture = {
  key: 'PROJ',
  types: [
    jira.issueType('10001', 'Task'),
    jira.issueType('10002', 'Bug'),
    jira.issueType('10003', 'Sub-task', true),
  ],
  fields: {
    '10001': [...systemFields(false), ...PROJ_CUSTOM],
    // Bugs require a severity.
    '10002': [
      ...systemFields(false),
      ...PROJ_CUSTOM.map((f) => (f.fieldId === 'customfield_10100' ? { ...f, required: true } : f)),
    ],
    '10003': [...systemFields(false)],
  },
  statuses: [
    jira.status('To Do', 'new', 10000),
    jira.status('In Progress', 'indeterminate', 3),
    jira.status('Done', 'done', 10001),
  ],
};

/** OPS: its own Severity options (same name and kind: one cf_severity), and a Budget that is text (another parameter). */
export const OPS: ProjectFixture = {
  key: 'OPS',
  types: [jira.issueType('10004', 'Incident')],
  fields: {
    '10004': [
      field('summary', 'Summary', { type: 'string', system: 'summary' }, { required: true }),
      field(
        'customfield_10200',
        'Severity',
        { type: 'option', custom: `${PLUGIN}select` },
        {
          required: true,
          allowedValues: [jira.option('61', 'Sev1'), jira.option('62', 'Sev2')],
        },
      ),
      field('customfield_10201', 'Budget', { type: 'string', custom: `${PLUGIN}textfield` }),
    ],
  },
  statuses: [jira.status('Open', 'new', 1), jira.status('Resolved', 'done', 5)],
};

export const LINK_TYPES = [
  jira.linkType('10000', 'Blocks', 'is blocked by', 'blocks'),
  jira.linkType('10001', 'Relates', 'relates to', 'relates to'),
  jira.linkType('10002', 'Duplicate', 'is duplicated by', 'duplicates'),
];

export interface MetadataRouteOptions {
  /** Holds the answers back until it settles. */
  gate?: Promise<void>;
  /** Serve create metadata as Server before 8.4 does: only GET /issue/createmeta?projectKeys=…&expand=…. */
  legacy?: boolean;
  /** Cloud's name for the fields of a createmeta page: `fields`, or `results` as jira.js's v3 model also has it. */
  fieldsKey?: 'fields' | 'results';
  /** The largest page the site serves, whatever maxResults asks for (Jira caps it server-side); default 50. */
  maxPage?: number;
}

/** One page of a createmeta list as Jira pages it: from startAt, at most maxResults (default 50, capped). */
function createMetaPage(
  flavor: Flavor,
  all: unknown[],
  query: Record<string, string>,
  cloudKey: string,
  maxPage: number,
) {
  const startAt = Number(query.startAt ?? 0);
  const maxResults = Math.min(Number(query.maxResults ?? 50), maxPage);
  const values = all.slice(startAt, startAt + maxResults);
  return flavor === 'cloud'
    ? { maxResults, startAt, total: all.length, [cloudKey]: values }
    : { maxResults, startAt, total: all.length, isLast: startAt + values.length >= all.length, values };
}

/** Serves the site's and the projects' metadata. */
export function routeMetadata(
  fake: FakeJira,
  flavor: Flavor,
  projects: ProjectFixture[],
  options: MetadataRouteOptions = {},
): void {
  const { gate, legacy = false, fieldsKey = 'fields', maxPage = 50 } = options;
  const api = apiOf(flavor);
  const held =
    <T>(body: T) =>
    async () => {
      await gate;
      return { status: 200, body };
    };
  fake.route(
    'GET',
    `${api}/priority`,
    held(['Highest', 'High', 'Medium', 'Low', 'Lowest'].map((n, i) => jira.priority(String(i + 1), n))),
  );
  fake.route('GET', `${api}/issueLinkType`, held({ issueLinkTypes: LINK_TYPES }));
  fake.route(
    'GET',
    `${api}/field`,
    held([
      jira.siteField('summary', 'Summary', { type: 'string' }),
      jira.siteField('customfield_10020', 'Sprint', {
        type: 'array',
        items: 'json',
        custom: 'com.pyxis.greenhopper.jira:gh-sprint',
      }),
      jira.siteField('customfield_10016', 'Story point estimate', {
        type: 'number',
        custom: 'com.pyxis.greenhopper.jira.jpo:jpo-custom-field-float',
      }),
      ...(flavor === 'server'
        ? [
            jira.siteField('customfield_10014', 'Epic Link', {
              type: 'any',
              custom: 'com.pyxis.greenhopper.jira:gh-epic-link',
            }),
          ]
        : []),
      jira.siteField('customfield_10100', 'Severity', { type: 'option', custom: `${PLUGIN}select` }),
    ]),
  );
  if (legacy) routeLegacyCreateMeta(fake, api, projects);
  for (const project of projects) {
    fake.route(
      'GET',
      `${api}/project/${project.key}/statuses`,
      held(
        project.types.map((type) => ({
          self: type.self,
          id: type.id,
          name: type.name,
          subtask: type.subtask,
          statuses: project.statuses,
        })),
      ),
    );
    if (legacy) continue;
    fake.route('GET', `${api}/issue/createmeta/${project.key}/issuetypes`, async (request) => {
      await gate;
      return {
        status: 200,
        body: createMetaPage(flavor, project.types, request.query, 'issueTypes', maxPage),
      };
    });
    for (const [typeId, fields] of Object.entries(project.fields)) {
      fake.route('GET', `${api}/issue/createmeta/${project.key}/issuetypes/${typeId}`, async (request) => {
        await gate;
        return { status: 200, body: createMetaPage(flavor, fields, request.query, fieldsKey, maxPage) };
      });
    }
  }
}

/**
 * Server before 8.4: one request for every project's issue types, with their fields keyed by field id only when
 * `expand` asks for projects.issuetypes.fields (as Jira does; without it the issue types come bare).
 */
function routeLegacyCreateMeta(fake: FakeJira, api: string, projects: ProjectFixture[]): void {
  fake.route('GET', `${api}/issue/createmeta`, (request) => {
    const withFields = (request.query.expand ?? '').split(',').includes('projects.issuetypes.fields');
    return {
      status: 200,
      body: {
        expand: 'projects',
        projects: projects
          .filter((p) => request.query.projectKeys?.split(',').includes(p.key))
          .map((p) => ({
            self: '',
            id: '10000',
            key: p.key,
            name: p.key,
            issuetypes: p.types.map((type) => ({
              ...type,
              ...(withFields
                ? {
                    expand: 'fields',
                    fields: Object.fromEntries(
                      (p.fields[type.id] ?? []).map((f) => {
                        const { fieldId, ...rest } = f as { fieldId: string };
                        return [fieldId, rest];
                      }),
                    ),
                  }
                : {}),
            })),
          })),
      },
    };
  });
}
