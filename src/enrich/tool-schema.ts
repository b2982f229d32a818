// The editable copy of one tool's input schema that the enricher chain rewrites, and which enricher edited what.
import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { ENRICHED_ENUM_MARKER, type ToolSchema } from '../contract/index.js';

type Json = Record<string, unknown>;

/** The parts of a tool descriptor that enrichers may edit. */
export interface ToolSchemaSource {
  inputSchema: Json;
  description?: string;
  annotations?: ToolAnnotations;
}

/** A rename made during enrichment; `layer` is the executor's index of the enricher that made it. */
export interface ParamRename {
  layer: number;
  from: string;
  to: string;
}

// Where a current parameter comes from: the name the plugin knows it by, or `added` by an enricher.
interface Origin {
  base: string;
  added: boolean;
}

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Strings and objects get a tag so that "1", 1 and {"a":1} never count as the same enum value.
const enumKey = (value: unknown): unknown =>
  typeof value === 'string'
    ? `s:${value}`
    : isRecord(value) || Array.isArray(value)
      ? `o:${JSON.stringify(value)}`
      : value;

export class EditableToolSchema implements ToolSchema {
  /** Index of the enricher now editing; the executor sets it before each one runs (default 0). */
  layer = 0;
  // Copy on write: most tools pass the chain untouched, and an untouched schema keeps its identity, so
  // listing costs no copies and validators compiled for it stay cached across rebuilds.
  readonly #source: Json;
  #edited: Json | undefined;
  #description: string | undefined;
  #annotations: ToolAnnotations | undefined;
  readonly #renames: ParamRename[] = [];
  // Only parameters that are not the plugin's own under their own name; absent = { base: name, added: false }.
  readonly #origins = new Map<string, Origin>();
  // The plugin's parameters removed during enrichment, by plugin-side name, so one added back is the plugin's again.
  readonly #removed = new Map<string, { name: string; def: unknown }>();
  // By plugin-side name: the last layer (the one nearest the agent) that changed what a parameter accepts.
  #editors: Map<string, number> | undefined;

  constructor(tool: ToolSchemaSource) {
    this.#source = tool.inputSchema;
    this.#description = tool.description;
    this.#annotations = tool.annotations && structuredClone(tool.annotations);
  }

  /** The schema to edit, copied from the plugin's on the first edit. */
  get #schema(): Json {
    this.#edited ??= structuredClone(this.#source);
    return this.#edited;
  }

  /** The schema as it stands, for reading only. */
  get #current(): Json {
    return this.#edited ?? this.#source;
  }

  /**
   * The enriched schema itself, not a copy: the plugin's own object when no enricher edited it. For the
   * pipeline, which publishes it once edits are over and never changes it.
   */
  view(): Json {
    return this.#current;
  }

  /** Renames in the order they were made. */
  get renames(): readonly ParamRename[] {
    return this.#renames;
  }

  param(name: string): Json | undefined {
    const props = this.#readParams();
    const def = props && Object.hasOwn(props, name) ? props[name] : undefined;
    return isRecord(def) ? structuredClone(def) : undefined;
  }

  paramNames(): string[] {
    return Object.keys(this.#readParams() ?? {});
  }

  /** `required: true` adds it to `required`, `false` takes it out, omitted leaves membership as it was. */
  addParam(name: string, schema: Json, options: { required?: boolean } = {}): void {
    let props = this.#params();
    if (!props) {
      props = {};
      this.#schema.properties = props;
    }
    if (!Object.hasOwn(props, name)) this.#noteAdded(name);
    this.#noteEdit(name);
    props[name] = structuredClone(schema);
    if (options.required !== undefined) this.setRequired(name, options.required);
  }

  removeParams(names: readonly string[]): void {
    const present = this.#readParams();
    if (!present || !names.some((name) => Object.hasOwn(present, name))) return;
    const props = this.#params();
    for (const name of names) {
      if (!props || !Object.hasOwn(props, name)) continue;
      const origin = this.#origins.get(name) ?? { base: name, added: false };
      this.#noteEdit(name);
      // A parameter an enricher added never reaches the plugin, so nothing needs to remember it.
      if (!origin.added) this.#removed.set(origin.base, { name, def: props[name] });
      this.#origins.delete(name);
      delete props[name];
    }
    this.#dropRequired(names);
  }

  setEnum(name: string, values: readonly unknown[]): void {
    this.#enumHolder(name, 'set an enum on').enum = structuredClone([...values]);
  }

  addEnumValues(name: string, values: readonly unknown[]): void {
    const holder = this.#enumHolder(name, 'add enum values to');
    const merged = Array.isArray(holder.enum) ? [...(holder.enum as unknown[])] : [];
    const seen = new Set(merged.map(enumKey));
    for (const value of values) {
      const key = enumKey(value);
      if (seen.has(key)) continue;
      seen.add(key);
      merged.push(structuredClone(value));
    }
    holder.enum = merged;
  }

  setRequired(name: string, required = true): void {
    if (!required) {
      if (this.param(name)) this.#noteEdit(name);
      return this.#dropRequired([name]);
    }
    this.#need(name, 'make required');
    this.#noteEdit(name);
    const list = Array.isArray(this.#schema.required) ? (this.#schema.required as unknown[]) : [];
    if (!list.includes(name)) this.#schema.required = [...list, name];
  }

  setDefault(name: string, value: unknown): void {
    this.#need(name, 'set a default on').default = structuredClone(value);
    this.#noteEdit(name);
  }

  setParamDescription(name: string, text: string): void {
    this.#need(name, 'describe').description = text;
  }

  renameParam(from: string, to: string): void {
    this.#need(from, `rename to "${to}"`);
    const props = this.#params() as Json;
    if (Object.hasOwn(props, to)) {
      throw new Error(`cannot rename parameter "${from}" to "${to}": a parameter "${to}" already exists`);
    }
    // Rebuilt rather than re-keyed so the parameter keeps its place in the order the agent sees.
    this.#schema.properties = Object.fromEntries(
      Object.entries(props).map(([key, def]) => [key === from ? to : key, def]),
    );
    if (Array.isArray(this.#schema.required)) {
      this.#schema.required = this.#schema.required.map((entry) => (entry === from ? to : entry));
    }
    const origin = this.#origins.get(from) ?? { base: from, added: false };
    this.#origins.delete(from);
    this.#origins.set(to, origin);
    this.#renames.push({ layer: this.layer, from, to });
  }

  setDescription(text: string): void {
    this.#description = text;
  }

  setAnnotations(annotations: ToolAnnotations): void {
    this.#annotations = { ...this.#annotations, ...structuredClone(annotations) };
  }

  /** A copy, so callers may keep or change it without affecting later edits. */
  toJSON(): Json {
    return structuredClone(this.#current);
  }

  description(): string | undefined {
    return this.#description;
  }

  annotations(): ToolAnnotations | undefined {
    return this.#annotations && structuredClone(this.#annotations);
  }

  /**
   * The last layer that changed what plugin-side parameter `param` accepts (its definition, `required`
   * membership or presence), or undefined when no enricher did. Descriptions and renames do not count.
   */
  editedBy(param: string): number | undefined {
    return this.#editors?.get(param);
  }

  /** The name the agent sees for a plugin-side parameter name; names never renamed come back unchanged. */
  agentName(param: string): string {
    return this.#renames.reduce((name, rename) => (rename.from === name ? rename.to : name), param);
  }

  #params(): Json | undefined {
    return isRecord(this.#schema.properties) ? this.#schema.properties : undefined;
  }

  #readParams(): Json | undefined {
    return isRecord(this.#current.properties) ? this.#current.properties : undefined;
  }

  #need(name: string, action: string): Json {
    const props = this.#params();
    const def = props && Object.hasOwn(props, name) ? props[name] : undefined;
    if (isRecord(def)) return def;
    const known = this.paramNames().join(', ') || '(none)';
    throw new Error(`no parameter "${name}" to ${action}; parameters: ${known}`);
  }

  #enumHolder(name: string, action: string): Json {
    const def = this.#need(name, action);
    this.#noteEdit(name);
    def[ENRICHED_ENUM_MARKER] = true;
    const isArray = def.type === 'array' || (Array.isArray(def.type) && def.type.includes('array'));
    if (!isArray) return def;
    // Values of an array parameter constrain its items; an array without `items` gets one to hold them.
    if (!isRecord(def.items)) def.items = {};
    return def.items as Json;
  }

  /** Call after #noteAdded for a new parameter, so it is noted under its own name. */
  #noteEdit(name: string): void {
    const base = this.#origins.get(name)?.base ?? name;
    this.#editors ??= new Map();
    this.#editors.set(base, this.layer);
  }

  #noteAdded(name: string): void {
    // Adding back a parameter the plugin had makes it the plugin's parameter again, not a new one.
    const back = [...this.#removed].findLast(([, removed]) => removed.name === name);
    if (!back) {
      this.#origins.set(name, { base: name, added: true });
      return;
    }
    this.#removed.delete(back[0]);
    if (back[0] !== name) this.#origins.set(name, { base: back[0], added: false });
  }

  // Drops the `required` key only when this empties it, so a schema that said `required: []` keeps saying so.
  #dropRequired(names: readonly string[]): void {
    const current = this.#current.required;
    if (!Array.isArray(current) || !current.some((entry: unknown) => names.includes(entry as string))) return;
    const list = this.#schema.required as unknown[];
    const kept = list.filter((entry: unknown) => !names.includes(entry as string));
    if (kept.length === 0) delete this.#schema.required;
    else this.#schema.required = kept;
  }
}
