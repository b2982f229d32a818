// A custom field's parameter: its JSON Schema for the agent, and the agent's value checked and mapped to the exact
// format Jira's API takes for that field type (option → {id}, user → {accountId} or {name}, textarea → ADF on Cloud…).
import { markdownToAdf } from './adf.js';
import type { FieldKind, FieldOption } from './fields.js';
import type { JiraFlavor } from './options.js';
import { markdownToWiki } from './wiki-from-markdown.js';
import { notAllowed } from '../kit/index.js';

type Schema = Record<string, unknown>;

/** "Parent" and "Parent > Child": how the agent names a cascading select's values. */
export const CASCADE_SEPARATOR = ' > ';

export function cascadeNames(options: readonly FieldOption[]): string[] {
  return options.flatMap((parent) => [
    parent.name,
    ...(parent.children ?? []).map((child) => `${parent.name}${CASCADE_SEPARATOR}${child.name}`),
  ]);
}

/** The names the agent may give an option-like field, in Jira's order. */
export function allowedNames(kind: FieldKind, options: readonly FieldOption[]): string[] {
  return kind === 'cascading' ? cascadeNames(options) : options.map((option) => option.name);
}

/** The parameter schema of a kind; `names` are the allowed option names of option-like kinds. */
export function paramSchema(kind: FieldKind, names: readonly string[], flavor: JiraFlavor): Schema {
  const named = (type: Schema): Schema => (names.length ? { ...type, enum: [...names] } : type);
  switch (kind) {
    case 'option':
    case 'version':
    case 'cascading':
      return named({ type: 'string' });
    case 'options':
    case 'versions':
      return { type: 'array', items: named({ type: 'string' }), uniqueItems: true };
    case 'user':
      return {
        type: 'string',
        description: `${flavor === 'cloud' ? 'accountId' : 'user name'}, display name or email`,
      };
    case 'users':
      return { type: 'array', items: { type: 'string' } };
    case 'number':
      return { type: 'number' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'labels':
      return { type: 'array', items: { type: 'string', pattern: '^\\S+$' } };
    case 'url':
      return { type: 'string', format: 'uri' };
    case 'text':
      return { type: 'string', maxLength: 255 };
    case 'textarea':
      return { type: 'string' };
  }
}

/** What a kind takes, in words, for descriptions and get_custom_fields. */
export function kindWords(kind: FieldKind, flavor: JiraFlavor): string {
  const user = flavor === 'cloud' ? 'accountId' : 'user name';
  const words: Record<FieldKind, string> = {
    option: 'one option',
    options: 'options (a list)',
    cascading: `an option, or "parent${CASCADE_SEPARATOR}child"`,
    user: `a user: ${user}, display name or email`,
    users: `a list of users: ${user}s, display names or emails`,
    number: 'a number',
    date: 'a date, YYYY-MM-DD',
    datetime: 'a date and time, ISO 8601',
    labels: 'labels (a list of words without spaces)',
    text: 'one line of text',
    textarea: 'text, in Markdown',
    url: 'a URL',
    version: 'one version',
    versions: 'versions (a list)',
  };
  return words[kind];
}

function refuse(param: string, given: unknown, allowed: string): never {
  throw notAllowed(param, given, allowed);
}

/** The option named `name`, case-insensitively; else an error listing the options. */
function pick(param: string, name: unknown, options: readonly FieldOption[], all: string[]): FieldOption {
  const wanted = typeof name === 'string' ? name.trim().toLowerCase() : undefined;
  const found = options.find((option) => option.name.toLowerCase() === wanted);
  return found ?? refuse(param, name, `one of ${all.join(', ') || '(no options)'}`);
}

const list = (param: string, value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined ? [] : [value];

const text = (param: string, value: unknown): string =>
  typeof value === 'string' ? value : refuse(param, value, 'text');

/** Jira's datetime format: 2024-03-01T10:00:00.000+0000. */
function jiraDateTime(param: string, value: unknown): string {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) refuse(param, value, 'a date and time such as 2024-03-01T10:00:00Z');
  return new Date(time).toISOString().replace('Z', '+0000');
}

export interface FieldTarget {
  kind: FieldKind;
  options?: readonly FieldOption[];
}

/**
 * The API value of `value` for a field, or a PluginError naming the parameter, what was given and what is
 * allowed (`cf_severity: "Hgh" is not one of Critical, High, Medium, Low`). null clears the field.
 */
export function apiValue(param: string, field: FieldTarget, value: unknown, flavor: JiraFlavor): unknown {
  if (value === null) return null;
  const options = field.options ?? [];
  const names = allowedNames(field.kind, options);
  const user = (name: unknown) =>
    flavor === 'cloud' ? { accountId: text(param, name) } : { name: text(param, name) };
  switch (field.kind) {
    case 'option':
    case 'version':
      return { id: pick(param, value, options, names).id };
    case 'options':
    case 'versions':
      return list(param, value).map((name) => ({ id: pick(param, name, options, names).id }));
    case 'cascading': {
      const [parentName, childName] = text(param, value)
        .split(CASCADE_SEPARATOR.trim())
        .map((s) => s.trim());
      const parent = options.find((o) => o.name.toLowerCase() === parentName?.toLowerCase());
      if (parent === undefined) return refuse(param, value, `one of ${names.join(', ')}`);
      if (childName === undefined) return { id: parent.id };
      const child = parent.children?.find((c) => c.name.toLowerCase() === childName.toLowerCase());
      if (child === undefined) return refuse(param, value, `one of ${names.join(', ')}`);
      return { id: parent.id, child: { id: child.id } };
    }
    case 'user':
      return user(value);
    case 'users':
      return list(param, value).map(user);
    case 'number': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof number === 'number' && Number.isFinite(number)
        ? number
        : refuse(param, value, 'a number');
    }
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(text(param, value))
        ? value
        : refuse(param, value, 'a date in the form YYYY-MM-DD');
    case 'datetime':
      return jiraDateTime(param, value);
    case 'labels':
      return list(param, value).map((label) =>
        typeof label === 'string' && /^\S+$/.test(label)
          ? label
          : refuse(param, label, 'a label without spaces'),
      );
    case 'url':
      return URL.canParse(text(param, value)) ? value : refuse(param, value, 'a URL');
    case 'text':
      return text(param, value);
    case 'textarea':
      // Cloud's v3 API takes multi-line text fields as ADF documents; Server takes wiki markup.
      return flavor === 'cloud' ? markdownToAdf(text(param, value)) : markdownToWiki(text(param, value));
  }
}
