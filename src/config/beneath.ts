// Lays tables read from another file (a devboy-tools pipeline config, mapped) beneath foresight.toml's own.

type Table = Record<string, unknown>;

/** `[planner]` and `[tools."<name>"]` tables in foresight.toml's spelling, to lie beneath the file's. */
export interface BeneathTables {
  planner: Table;
  tools: Record<string, Table>;
}

/** Keys that name one setting: the file's spelling of it hides every spelling beneath. */
const SAME_SETTING: readonly (readonly string[])[] = [['max_in_flight', 'max_parallel_prefetches']];

const isTable = (value: unknown): value is Table =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** `top` over `under`, key by key; a key that is another name of one `top` sets is left out. */
function over(top: Table, under: Table): Table {
  const kept = { ...under };
  for (const names of SAME_SETTING)
    if (names.some((name) => Object.hasOwn(top, name))) for (const name of names) delete kept[name];
  return { ...kept, ...top };
}

/**
 * The file's table with `beneath` under it: the file's own keys win, field by field within `[planner]` and
 * each `[tools."<name>"]` block. A table the file gives in the wrong shape is left as it is, for the schema
 * to report.
 */
export function layBeneath(file: Table, beneath: BeneathTables): Table {
  const merged = { ...file };
  if (Object.keys(beneath.planner).length > 0 && (file.planner === undefined || isTable(file.planner)))
    merged.planner = over(file.planner ?? {}, beneath.planner);
  if (Object.keys(beneath.tools).length > 0 && (file.tools === undefined || isTable(file.tools))) {
    const tools: Table = { ...beneath.tools, ...(file.tools ?? {}) };
    for (const [name, block] of Object.entries(beneath.tools)) {
      const own = (file.tools ?? {})[name];
      if (isTable(own)) tools[name] = over(own, block);
    }
    merged.tools = tools;
  }
  return merged;
}
