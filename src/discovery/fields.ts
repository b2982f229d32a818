// What of a published tool the index searches: its name, description, parameter names and descriptions, the
// enum values of its input schema (enriched: project names, labels, statuses) and its `_meta` search hint.

/** A tool as published (`tools/list`): the index reads these members only. */
export interface IndexableTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: object;
  annotations?: { title?: string; readOnlyHint?: boolean };
  _meta?: Record<string, unknown>;
}

/** A tool's searchable text, one string per field. */
export interface ToolDocument {
  id: string;
  name: string;
  description: string;
  params: string;
  paramDescriptions: string;
  enums: string;
}

/** The fields and how much a match in each counts. */
export const FIELD_BOOSTS: Readonly<Record<Exclude<keyof ToolDocument, 'id'>, number>> = {
  name: 3,
  description: 1.5,
  params: 1,
  paramDescriptions: 0.6,
  enums: 0.8,
};

/** How deep into nested schemas (objects in arrays in objects…) the walk goes. */
const MAX_DEPTH = 5;
/** At most this many enum values per tool: an enum of thousands of names would drown the rest. */
const MAX_ENUM_VALUES = 400;

interface Collected {
  params: string[];
  paramDescriptions: string[];
  enums: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collectEnum(schema: Record<string, unknown>, into: Collected): void {
  const values: unknown[] = Array.isArray(schema.enum) ? [...(schema.enum as unknown[])] : [];
  if (typeof schema.const === 'string') values.push(schema.const);
  for (const value of values) {
    if (into.enums.length >= MAX_ENUM_VALUES) return;
    if (typeof value === 'string' || typeof value === 'number') into.enums.push(String(value));
  }
}

function walk(schema: unknown, into: Collected, depth: number): void {
  if (!isRecord(schema) || depth > MAX_DEPTH) return;
  collectEnum(schema, into);
  if (isRecord(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      into.params.push(name);
      if (isRecord(property) && typeof property.description === 'string') {
        into.paramDescriptions.push(property.description);
      }
      walk(property, into, depth + 1);
    }
  }
  walk(schema.items, into, depth + 1);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) for (const option of options) walk(option, into, depth + 1);
  }
}

/** The index's document for a tool. */
export function toolDocument(tool: IndexableTool): ToolDocument {
  const collected: Collected = { params: [], paramDescriptions: [], enums: [] };
  walk(tool.inputSchema, collected, 0);
  const hint = tool._meta?.['anthropic/searchHint'];
  const titles = [tool.title, tool.annotations?.title].filter((t): t is string => typeof t === 'string');
  return {
    id: tool.name,
    name: [tool.name, ...titles].join(' '),
    description: [tool.description ?? '', typeof hint === 'string' ? hint : ''].join(' '),
    params: collected.params.join(' '),
    paramDescriptions: collected.paramDescriptions.join(' \n '),
    enums: collected.enums.join(' \n '),
  };
}
