// A deterministic synthetic tool catalog of N tools over many made-up services (CRM, billing, monitoring, chat,
// storage, …): realistic names, descriptions and JSON Schemas, the same for the same seed, for the discovery
// bench's token counts and search latency at 1,000 and 5,000 tools.
import { createRandom, mixSeed } from './corpus-sessions.js';

export interface SyntheticTool {
  name: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, Record<string, unknown>>; required?: string[] };
}

interface Domain {
  area: string;
  /** Entities with a plural and a few fields an item of it has. */
  entities: { one: string; many: string; fields: string[]; states: string[] }[];
}

const DOMAINS: readonly Domain[] = [
  {
    area: 'customer relationship management',
    entities: [
      {
        one: 'contact',
        many: 'contacts',
        fields: ['email', 'phone', 'company'],
        states: ['lead', 'customer', 'churned'],
      },
      {
        one: 'deal',
        many: 'deals',
        fields: ['amount', 'stage', 'close_date'],
        states: ['open', 'won', 'lost'],
      },
      {
        one: 'account',
        many: 'accounts',
        fields: ['industry', 'owner', 'region'],
        states: ['active', 'archived'],
      },
    ],
  },
  {
    area: 'billing and invoicing',
    entities: [
      {
        one: 'invoice',
        many: 'invoices',
        fields: ['amount', 'currency', 'due_date'],
        states: ['draft', 'sent', 'paid', 'overdue'],
      },
      {
        one: 'subscription',
        many: 'subscriptions',
        fields: ['plan', 'interval', 'seats'],
        states: ['trialing', 'active', 'canceled'],
      },
      {
        one: 'refund',
        many: 'refunds',
        fields: ['amount', 'reason'],
        states: ['pending', 'succeeded', 'failed'],
      },
    ],
  },
  {
    area: 'infrastructure monitoring',
    entities: [
      {
        one: 'alert',
        many: 'alerts',
        fields: ['severity', 'service', 'threshold'],
        states: ['firing', 'acknowledged', 'resolved'],
      },
      { one: 'dashboard', many: 'dashboards', fields: ['title', 'panels'], states: ['shared', 'private'] },
      {
        one: 'metric',
        many: 'metrics',
        fields: ['query', 'window', 'unit'],
        states: ['gauge', 'counter', 'histogram'],
      },
    ],
  },
  {
    area: 'team chat',
    entities: [
      {
        one: 'message',
        many: 'messages',
        fields: ['text', 'thread_id'],
        states: ['sent', 'edited', 'deleted'],
      },
      {
        one: 'channel',
        many: 'channels',
        fields: ['topic', 'members'],
        states: ['public', 'private', 'archived'],
      },
      { one: 'reaction', many: 'reactions', fields: ['emoji', 'message_id'], states: ['added', 'removed'] },
    ],
  },
  {
    area: 'file storage',
    entities: [
      { one: 'file', many: 'files', fields: ['path', 'size', 'mime_type'], states: ['uploaded', 'trashed'] },
      { one: 'folder', many: 'folders', fields: ['path', 'parent_id'], states: ['shared', 'private'] },
      {
        one: 'share link',
        many: 'share links',
        fields: ['expires_at', 'permission'],
        states: ['active', 'revoked'],
      },
    ],
  },
  {
    area: 'calendar and scheduling',
    entities: [
      {
        one: 'event',
        many: 'events',
        fields: ['start', 'end', 'attendees'],
        states: ['confirmed', 'tentative', 'cancelled'],
      },
      {
        one: 'booking',
        many: 'bookings',
        fields: ['slot', 'guest_email'],
        states: ['booked', 'rescheduled', 'no-show'],
      },
    ],
  },
  {
    area: 'product analytics',
    entities: [
      { one: 'funnel', many: 'funnels', fields: ['steps', 'date_range'], states: ['draft', 'published'] },
      { one: 'cohort', many: 'cohorts', fields: ['definition', 'size'], states: ['static', 'dynamic'] },
      {
        one: 'report',
        many: 'reports',
        fields: ['metric', 'breakdown', 'date_range'],
        states: ['scheduled', 'adhoc'],
      },
    ],
  },
  {
    area: 'human resources',
    entities: [
      {
        one: 'employee',
        many: 'employees',
        fields: ['department', 'manager', 'start_date'],
        states: ['active', 'on leave', 'terminated'],
      },
      {
        one: 'time-off request',
        many: 'time-off requests',
        fields: ['from', 'to', 'kind'],
        states: ['requested', 'approved', 'denied'],
      },
    ],
  },
  {
    area: 'e-commerce',
    entities: [
      {
        one: 'order',
        many: 'orders',
        fields: ['total', 'customer_id', 'shipping_address'],
        states: ['pending', 'shipped', 'delivered', 'returned'],
      },
      {
        one: 'product',
        many: 'products',
        fields: ['sku', 'price', 'stock'],
        states: ['in stock', 'out of stock', 'discontinued'],
      },
      { one: 'coupon', many: 'coupons', fields: ['code', 'percent_off'], states: ['active', 'expired'] },
    ],
  },
  {
    area: 'email marketing',
    entities: [
      {
        one: 'campaign',
        many: 'campaigns',
        fields: ['subject', 'audience', 'send_at'],
        states: ['draft', 'scheduled', 'sent'],
      },
      {
        one: 'subscriber',
        many: 'subscribers',
        fields: ['email', 'tags'],
        states: ['subscribed', 'unsubscribed', 'bounced'],
      },
    ],
  },
  {
    area: 'knowledge base',
    entities: [
      {
        one: 'article',
        many: 'articles',
        fields: ['title', 'body', 'category'],
        states: ['draft', 'published', 'archived'],
      },
      { one: 'comment', many: 'comments', fields: ['body', 'author'], states: ['visible', 'hidden'] },
    ],
  },
  {
    area: 'database administration',
    entities: [
      { one: 'table', many: 'tables', fields: ['schema', 'columns'], states: ['ok', 'locked'] },
      {
        one: 'backup',
        many: 'backups',
        fields: ['database', 'retention_days'],
        states: ['running', 'completed', 'failed'],
      },
      {
        one: 'query',
        many: 'queries',
        fields: ['sql', 'timeout_ms'],
        states: ['running', 'finished', 'cancelled'],
      },
    ],
  },
];

const PREFIXES = [
  'nimbus',
  'ledger',
  'atlas',
  'quill',
  'harbor',
  'pivot',
  'beacon',
  'cobalt',
  'ember',
  'fable',
  'glint',
  'helix',
  'iris',
  'juniper',
  'kestrel',
  'lumen',
  'mosaic',
  'nova',
  'orbit',
  'prism',
  'quartz',
  'relay',
  'sable',
  'tandem',
  'umber',
  'vertex',
  'willow',
  'xenon',
  'yarrow',
  'zephyr',
  'acorn',
  'basalt',
  'cinder',
  'delta',
  'echo',
  'flint',
];
const SUFFIXES = [
  'ly',
  'hub',
  'desk',
  'io',
  'base',
  'flow',
  'works',
  'stack',
  'cloud',
  'point',
  'sync',
  'kit',
];

const VERBS = [
  {
    verb: 'list',
    text: (e: Domain['entities'][number], s: string) =>
      `List ${e.many} in ${s}, newest first, filtered by state and a free-text query. Returns one page; pass the cursor from the previous answer for the next.`,
  },
  {
    verb: 'get',
    text: (e: Domain['entities'][number], s: string) =>
      `Get one ${e.one} from ${s} by its id, with every field (${e.fields.join(', ')}) and its current state.`,
  },
  {
    verb: 'create',
    text: (e: Domain['entities'][number], s: string) =>
      `Create a ${e.one} in ${s}. Returns the new ${e.one}'s id and a link to it.`,
  },
  {
    verb: 'update',
    text: (e: Domain['entities'][number], s: string) =>
      `Update a ${e.one} in ${s}: only the fields given change; the state moves through the allowed transitions.`,
  },
  {
    verb: 'delete',
    text: (e: Domain['entities'][number], s: string) => `Delete a ${e.one} from ${s}. This cannot be undone.`,
  },
  {
    verb: 'search',
    text: (e: Domain['entities'][number], s: string) =>
      `Search ${e.many} in ${s} by keyword across ${e.fields.join(', ')}; ranked by relevance.`,
  },
  {
    verb: 'export',
    text: (e: Domain['entities'][number], s: string) =>
      `Export ${e.many} from ${s} as CSV or JSON for a date range.`,
  },
  {
    verb: 'count',
    text: (e: Domain['entities'][number], s: string) => `Count ${e.many} in ${s} grouped by state.`,
  },
] as const;

const snake = (text: string) => text.replace(/[^a-z0-9]+/gi, '_').toLowerCase();

function fieldSchema(field: string): Record<string, unknown> {
  if (/amount|total|price|size|seats|percent|stock|timeout|retention|threshold|panels/.test(field))
    return { type: 'number', description: `The ${field.replace(/_/g, ' ')}.` };
  if (/date|_at$|start|end|from|to$/.test(field))
    return {
      type: 'string',
      format: 'date-time',
      description: `The ${field.replace(/_/g, ' ')} (ISO 8601).`,
    };
  if (/members|attendees|tags|steps|columns/.test(field))
    return { type: 'array', items: { type: 'string' }, description: `The ${field.replace(/_/g, ' ')}.` };
  return { type: 'string', description: `The ${field.replace(/_/g, ' ')}.` };
}

function schemaFor(verb: string, entity: Domain['entities'][number]): SyntheticTool['inputSchema'] {
  const id = { type: 'string', description: `The ${entity.one}'s id.` };
  const state = { type: 'string', enum: entity.states, description: `The ${entity.one}'s state.` };
  const fields = Object.fromEntries(entity.fields.map((f) => [f, fieldSchema(f)]));
  switch (verb) {
    case 'list':
      return {
        type: 'object',
        properties: {
          state,
          query: { type: 'string', description: 'Words the item must contain.' },
          limit: { type: 'integer', minimum: 1, maximum: 100, default: 20, description: 'Items per page.' },
          cursor: { type: 'string', description: 'The cursor of the next page, from the previous answer.' },
        },
      };
    case 'get':
    case 'delete':
      return { type: 'object', properties: { id }, required: ['id'] };
    case 'create':
      return { type: 'object', properties: { ...fields, state }, required: entity.fields.slice(0, 1) };
    case 'update':
      return { type: 'object', properties: { id, ...fields, state }, required: ['id'] };
    case 'search':
      return {
        type: 'object',
        properties: {
          keywords: { type: 'string', description: 'What to look for.' },
          limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
        },
        required: ['keywords'],
      };
    case 'export':
      return {
        type: 'object',
        properties: {
          format: { type: 'string', enum: ['csv', 'json'], default: 'csv' },
          since: { type: 'string', format: 'date', description: 'First day included.' },
          until: { type: 'string', format: 'date', description: 'Last day included.' },
        },
      };
    default:
      return { type: 'object', properties: { state } };
  }
}

/** Most hosted APIs scope every call to an account or workspace: each tool takes one, required. */
function withWorkspace(schema: SyntheticTool['inputSchema'], title: string): SyntheticTool['inputSchema'] {
  return {
    type: 'object',
    properties: {
      workspace_id: {
        type: 'string',
        description: `The id of the ${title} workspace to act in, as the workspaces list shows it.`,
      },
      ...schema.properties,
    },
    required: ['workspace_id', ...(schema.required ?? [])],
  };
}

/** `count` tools over services of 4 to 24 tools each; the same `seed` gives the same catalog, names unique. */
export function syntheticCatalog(count: number, seed = 37): SyntheticTool[] {
  const random = createRandom(mixSeed(seed, 'synthetic-catalog'));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const tools: SyntheticTool[] = [];
  const services = new Set<string>();
  while (tools.length < count) {
    let service = `${pick(PREFIXES)}${pick(SUFFIXES)}`;
    for (let n = 2; services.has(service); n += 1) service = `${service.replace(/\d+$/, '')}${n}`;
    services.add(service);
    const domain = pick(DOMAINS);
    const title = service.charAt(0).toUpperCase() + service.slice(1);
    const pairs = domain.entities.flatMap((entity) => VERBS.map((v) => ({ entity, v })));
    const size = Math.min(count - tools.length, 4 + Math.floor(random() * 21), pairs.length);
    // A shuffled prefix of the service's possible tools.
    for (let i = pairs.length - 1; i > 0; i -= 1) {
      const j = Math.floor(random() * (i + 1));
      [pairs[i], pairs[j]] = [pairs[j]!, pairs[i]!];
    }
    for (const { entity, v } of pairs.slice(0, size)) {
      const noun = snake(
        v.verb === 'list' || v.verb === 'search' || v.verb === 'export' || v.verb === 'count'
          ? entity.many
          : entity.one,
      );
      tools.push({
        name: `${service}__${v.verb}_${noun}`,
        description: `${v.text(entity, title)} (${title}, ${domain.area}.)`,
        inputSchema: withWorkspace(schemaFor(v.verb, entity), title),
      });
    }
  }
  return tools;
}
