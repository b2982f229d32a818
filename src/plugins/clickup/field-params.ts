// Each ClickUp custom field as a typed `cf_<name>` parameter, and the agent's value mapped back to the exact
// value "Set Custom Field Value" documents for its type (drop_down: option id; labels: option ids; date: unix
// ms; users and tasks: ids, set as {add, rem}; location: {location: {lat, lng}, formatted_address}; …).
import { fieldNames } from '../../contract/index.js';
import type { ClickUpFieldJson, ClickUpUserJson } from './api-types.js';
import type { WorkspaceMetadata } from './metadata.js';
import { notAllowed } from '../kit/index.js';

type Schema = Record<string, unknown>;

/** One custom field as the enriched tools offer it. */
export interface FieldParam {
  /** "cf_severity" */
  param: string;
  field: ClickUpFieldJson;
  /** Names of the lists that have the field. */
  lists: string[];
  /** Ids of those lists. */
  listIds: string[];
}

/** A mapped value: what the API takes for the field, with its type so a handler can tell how to send it. */
export interface FieldWrite {
  type: string;
  value: unknown;
  value_options?: { time: boolean };
  /** A date field given without a time (YYYY-MM-DD): `value` is fixed to ClickUp's instant for it when sent. */
  day?: string;
}

/** Types whose value is a set of ids, written as {add, rem} against the task's current value. */
export const ID_SET_TYPES = new Set(['users', 'tasks']);

const optionName = (option: { name?: string; label?: string }) => option.name ?? option.label ?? '';

/** The agent-side schema of a field; undefined for types the API cannot set (formulas, automatic progress…). */
export function paramSchema(field: ClickUpFieldJson): Schema | undefined {
  const options = (field.type_config?.options ?? []).map(optionName);
  const about = (text: string) => `${field.name}: ${text}`;
  switch (field.type) {
    case 'drop_down':
      return { type: 'string', enum: options, description: about('one of the options') };
    case 'labels':
      return {
        type: 'array',
        items: { type: 'string', enum: options },
        uniqueItems: true,
        description: about('any of the labels; the list given replaces the current one'),
      };
    case 'number':
      return { type: 'number', description: about('a number') };
    case 'currency': {
      const currency = field.type_config?.currency_type;
      return { type: 'number', description: about(`an amount${currency ? ` in ${currency}` : ''}`) };
    }
    case 'checkbox':
      return { type: 'boolean', description: about('checked or not') };
    case 'date':
      return { type: 'string', description: about('a date, YYYY-MM-DD, or an ISO 8601 date-time') };
    case 'text':
    case 'short_text':
      return { type: 'string', description: about('text') };
    case 'url':
      return { type: 'string', format: 'uri', description: about('a web address (http or https)') };
    case 'email':
      return { type: 'string', format: 'email', description: about('an email address') };
    case 'phone':
      return {
        type: 'string',
        description: about('a phone number with its country code, e.g. "+1 201 555 0123"'),
      };
    case 'emoji': {
      const count = field.type_config?.count ?? 5;
      return {
        type: 'integer',
        minimum: 0,
        maximum: count,
        description: about(`a rating from 0 to ${count}`),
      };
    }
    case 'manual_progress': {
      const { start = 0, end = 100 } = field.type_config ?? {};
      return {
        type: 'number',
        minimum: start,
        maximum: end,
        description: about(`progress from ${start} to ${end}`),
      };
    }
    case 'users':
      return {
        type: 'array',
        items: { type: ['string', 'integer'] },
        description: about(
          'people: user ids, names or emails (get_users); the list given replaces the current one',
        ),
      };
    case 'tasks':
      return {
        type: 'array',
        items: { type: 'string' },
        description: about('task ids; the list given replaces the current one'),
      };
    case 'location':
      return {
        type: 'object',
        properties: {
          lat: { type: 'number', minimum: -90, maximum: 90 },
          lng: { type: 'number', minimum: -180, maximum: 180 },
          formatted_address: { type: 'string' },
        },
        required: ['lat', 'lng'],
        additionalProperties: false,
        description: about('a place: lat, lng and its address'),
      };
    default:
      return undefined;
  }
}

/** Every settable field of the loaded lists, one parameter per field id, named distinctly and stably. */
export function fieldParams(data: WorkspaceMetadata | undefined): FieldParam[] {
  if (!data) return [];
  const byId = new Map<string, FieldParam>();
  for (const list of data.lists) {
    for (const field of list.fields) {
      if (paramSchema(field) === undefined) continue;
      const known = byId.get(field.id);
      if (known) {
        known.lists.push(list.name);
        known.listIds.push(list.id);
      } else byId.set(field.id, { param: '', field, lists: [list.name], listIds: [list.id] });
    }
  }
  const names = fieldNames([...byId.values()].map((entry) => [entry.field.id, entry.field.name] as const));
  for (const entry of byId.values()) entry.param = names.get(entry.field.id) ?? entry.field.id;
  return [...byId.values()];
}

const oneOf = (names: string[]) => `one of ${names.join(', ') || '(no options)'}`;

/** "2025-03-01" → a day (its instant is fixed when sent, see dates.ts); a date-time → that instant, time shown. */
function dateValue(param: string, given: unknown): FieldWrite {
  const text = typeof given === 'string' ? given.trim() : '';
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const ms = dateOnly
    ? Date.parse(`${text}T00:00:00Z`)
    : /^\d{4}-\d{2}-\d{2}T/.test(text)
      ? Date.parse(text)
      : NaN;
  if (Number.isNaN(ms)) throw notAllowed(param, given, 'a date (YYYY-MM-DD or an ISO 8601 date-time)');
  return { type: 'date', value: ms, value_options: { time: !dateOnly }, ...(dateOnly ? { day: text } : {}) };
}

export function userIds(param: string, given: unknown, members: readonly ClickUpUserJson[]): number[] {
  const values = Array.isArray(given) ? (given as unknown[]) : [given];
  return values.map((value) => {
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    const text = String(value).trim();
    if (/^\d+$/.test(text)) return Number(text);
    const lower = text.toLowerCase().replace(/^@/, '');
    const member = members.find(
      (user) => user.username?.toLowerCase() === lower || user.email?.toLowerCase() === lower,
    );
    if (member) return member.id;
    const known = members.map((user) => user.username ?? user.email ?? String(user.id));
    throw notAllowed(param, value, `a member of the list; members: ${known.join(', ') || 'none loaded'}`);
  });
}

/** The agent's value of one field → the API's value for its type; bad values say what is allowed. */
export function toFieldWrite(
  entry: FieldParam,
  given: unknown,
  members: readonly ClickUpUserJson[],
): FieldWrite {
  const { param, field } = entry;
  const type = field.type;
  const options = field.type_config?.options ?? [];
  const names = options.map(optionName);
  const direct = (value: unknown): FieldWrite => ({ type, value });
  switch (type) {
    case 'drop_down': {
      const option = options.find((candidate) => optionName(candidate) === given);
      if (!option) throw notAllowed(param, given, oneOf(names));
      return direct(option.id);
    }
    case 'labels': {
      if (!Array.isArray(given)) throw notAllowed(param, given, `a list of labels, each ${oneOf(names)}`);
      return direct(
        given.map((label: unknown) => {
          const option = options.find((candidate) => optionName(candidate) === label);
          if (!option) throw notAllowed(param, label, oneOf(names));
          return option.id;
        }),
      );
    }
    case 'number':
    case 'currency':
      if (typeof given !== 'number' || !Number.isFinite(given)) throw notAllowed(param, given, 'a number');
      return direct(given);
    case 'manual_progress': {
      const { start = 0, end = 100 } = field.type_config ?? {};
      if (typeof given !== 'number' || given < start || given > end) {
        throw notAllowed(param, given, `a number from ${start} to ${end}`);
      }
      return direct({ current: given });
    }
    case 'checkbox':
      if (typeof given !== 'boolean') throw notAllowed(param, given, 'true or false');
      return direct(given);
    case 'emoji': {
      const count = field.type_config?.count ?? 5;
      if (typeof given !== 'number' || !Number.isInteger(given) || given < 0 || given > count) {
        throw notAllowed(param, given, `a whole number from 0 to ${count}`);
      }
      return direct(given);
    }
    case 'date':
      return dateValue(param, given);
    case 'url': {
      const ok = typeof given === 'string' && URL.canParse(given) && /^https?:/i.test(given);
      if (!ok) throw notAllowed(param, given, 'a web address starting with http:// or https://');
      return direct(given);
    }
    case 'email':
      if (typeof given !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(given)) {
        throw notAllowed(param, given, 'an email address');
      }
      return direct(given);
    case 'phone':
      if (typeof given !== 'string' || !/^\+\d[\d\s().-]{5,}$/.test(given.trim())) {
        throw notAllowed(param, given, 'a phone number with its country code, e.g. "+1 201 555 0123"');
      }
      return direct(given.trim());
    case 'users':
      return direct(userIds(param, given, members));
    case 'tasks':
      if (!Array.isArray(given) || !given.every((id) => typeof id === 'string')) {
        throw notAllowed(param, given, 'a list of task ids');
      }
      return direct(given);
    case 'location': {
      const place = given as { lat?: unknown; lng?: unknown; formatted_address?: unknown } | null;
      if (typeof place?.lat !== 'number' || typeof place.lng !== 'number') {
        throw notAllowed(param, given, 'a place {lat, lng, formatted_address}');
      }
      const address = typeof place.formatted_address === 'string' ? place.formatted_address : '';
      return direct({ location: { lat: place.lat, lng: place.lng }, formatted_address: address });
    }
    default:
      if (typeof given !== 'string') throw notAllowed(param, given, 'text');
      return direct(given);
  }
}
