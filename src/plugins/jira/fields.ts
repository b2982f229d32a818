// What the jira plugin knows of a field from Jira's create metadata: its value kind, its options, and the special
// fields (sprint, epic link, story points) that the unified parameters set instead of a cf_ parameter.

/** The value kinds a custom field parameter takes; each maps to one exact API format (custom-values.ts). */
export const FIELD_KINDS = [
  'option',
  'options',
  'cascading',
  'user',
  'users',
  'number',
  'date',
  'datetime',
  'labels',
  'text',
  'textarea',
  'url',
  'version',
  'versions',
] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];

/** An allowed value: an option (`value`), a version (`name`), or a cascading parent with its children. */
export interface FieldOption {
  id: string;
  name: string;
  children?: FieldOption[];
}

/** A custom field of one project, merged over the issue types whose create screen has it. */
export interface CustomFieldDef {
  /** "customfield_10042". */
  id: string;
  name: string;
  kind: FieldKind;
  options?: FieldOption[];
  /** Issue type names whose create screen has the field. */
  issueTypes: string[];
  /** Issue type names that require a value for it (required, with no default Jira fills in). */
  requiredFor: string[];
}

/** The schema Jira gives a field in createmeta and /field. */
export interface JiraFieldSchema {
  type?: string;
  items?: string;
  custom?: string;
  system?: string;
}

/** The fields the unified parameters stand for, by field id, when the instance has them. */
export interface SpecialFields {
  /** Story points or estimate ("Story Points", "Story point estimate"): `points`. */
  points?: string;
  /** Jira Software's sprint field: `sprint`. */
  sprint?: string;
  /** Server / Data Center's "Epic Link": `epic`. */
  epicLink?: string;
}

const PLUGIN = 'com.atlassian.jira.plugin.system.customfieldtypes:';
const SPRINT_TYPE = 'com.pyxis.greenhopper.jira:gh-sprint';
const EPIC_LINK_TYPE = 'com.pyxis.greenhopper.jira:gh-epic-link';
const STORY_POINTS = /^story[ _-]?points?( estimate)?$/i;

/** The kind of a custom field, or undefined for types the tools do not set (teams, groups, app fields…). */
export function kindOf(schema: JiraFieldSchema | undefined): FieldKind | undefined {
  const custom = schema?.custom ?? '';
  switch (schema?.type) {
    case 'option':
      return 'option';
    case 'option-with-child':
      return 'cascading';
    case 'user':
      return 'user';
    case 'number':
      return 'number';
    case 'date':
      return 'date';
    case 'datetime':
      return 'datetime';
    case 'version':
      return 'version';
    case 'string':
      if (custom === `${PLUGIN}textarea`) return 'textarea';
      if (custom === `${PLUGIN}url`) return 'url';
      return custom === `${PLUGIN}textfield` || custom === '' ? 'text' : undefined;
    case 'array':
      if (schema.items === 'option') return 'options';
      if (schema.items === 'user') return 'users';
      if (schema.items === 'version') return 'versions';
      if (schema.items === 'string' && custom === `${PLUGIN}labels`) return 'labels';
      return undefined;
    default:
      return undefined;
  }
}

/** Which special field a field is, by its type (sprint, epic link) or its name (story points). */
export function specialOf(field: {
  name: string;
  schema?: JiraFieldSchema;
}): keyof SpecialFields | undefined {
  if (field.schema?.custom === SPRINT_TYPE) return 'sprint';
  if (field.schema?.custom === EPIC_LINK_TYPE) return 'epicLink';
  if (field.schema?.type === 'number' && STORY_POINTS.test(field.name.trim())) return 'points';
  return undefined;
}

/** Allowed values as createmeta lists them: options carry `value`, versions and components `name`. */
export function optionsOf(allowedValues: unknown): FieldOption[] | undefined {
  if (!Array.isArray(allowedValues)) return undefined;
  const options: FieldOption[] = [];
  for (const raw of allowedValues as Record<string, unknown>[]) {
    const name =
      typeof raw.value === 'string' ? raw.value : typeof raw.name === 'string' ? raw.name : undefined;
    if (name === undefined || raw.id === undefined || raw.disabled === true || raw.archived === true)
      continue;
    const children = optionsOf(raw.children);
    options.push({ id: String(raw.id as string | number), name, ...(children?.length ? { children } : {}) });
  }
  return options;
}
