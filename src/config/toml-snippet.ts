// Writes mapped [planner] and [tools."…"] tables as foresight.toml text: one key a line, links as inline tables.

type Table = Record<string, unknown>;

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

function key(name: string): string {
  return BARE_KEY.test(name) ? name : JSON.stringify(name);
}

/** A TOML value: JSON's spelling of strings, numbers and booleans is TOML's too; arrays and inline tables nest. */
function value(item: unknown): string {
  if (Array.isArray(item)) return `[${item.map(value).join(', ')}]`;
  if (typeof item === 'object' && item !== null)
    return `{ ${Object.entries(item)
      .map(([name, member]) => `${key(name)} = ${value(member)}`)
      .join(', ')} }`;
  if (typeof item === 'number' && !Number.isFinite(item)) return item > 0 ? 'inf' : item < 0 ? '-inf' : 'nan';
  return JSON.stringify(item);
}

function section(header: string, table: Table): string[] {
  const lines = [header];
  for (const [name, member] of Object.entries(table)) {
    if (Array.isArray(member) && member.length > 1 && member.some((m) => typeof m === 'object'))
      lines.push(`${key(name)} = [`, ...member.map((m) => `  ${value(m)},`), ']');
    else lines.push(`${key(name)} = ${value(member)}`);
  }
  return lines;
}

/** The tables as foresight.toml text, [planner] first (when it has keys), then each [tools."<name>"]. */
export function tomlSnippet(tables: { planner: Table; tools: Record<string, Table> }): string {
  const parts: string[][] = [];
  if (Object.keys(tables.planner).length > 0) parts.push(section('[planner]', tables.planner));
  for (const [name, block] of Object.entries(tables.tools))
    parts.push(section(`[tools.${JSON.stringify(name)}]`, block));
  return parts.map((lines) => `${lines.join('\n')}\n`).join('\n');
}
