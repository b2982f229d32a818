// The MetaTool data (../shared/data/tool-retrieval/metatool/, beside the repository; see its SOURCE.md): the 199
// tools, the single-tool queries and the two-tool queries, read and checked.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { METATOOL_DIR } from './inputs.js';

export interface LabelledQuery {
  query: string;
  /** The tools that serve it (one for single-tool queries). */
  tools: string[];
}

export interface MetaToolData {
  tools: { name: string; description: string }[];
  single: LabelledQuery[];
  multi: LabelledQuery[];
}

/** Splits CSV text into rows of fields (quoted fields with commas, doubled quotes and newlines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field.length > 0 || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** Reads the data; a missing file fails with where it was looked for and what it is. */
export function readMetaTool(): MetaToolData {
  const file = (name: string): string => {
    const path = join(METATOOL_DIR, name);
    if (!existsSync(path)) {
      throw new Error(
        `discovery bench: ${path} is missing: the MetaTool data (HowieHwong/MetaTool, MIT) belongs in ` +
          `shared/data/tool-retrieval/metatool/ beside the repository (see that folder's SOURCE.md)`,
      );
    }
    return readFileSync(path, 'utf8');
  };
  const descriptions = JSON.parse(file('plugin_des.json')) as Record<string, string>;
  const tools = Object.entries(descriptions).map(([name, description]) => ({ name, description }));
  const single = parseCsv(file('all_clean_data.csv'))
    .slice(1)
    .filter((row) => row.length >= 2 && row[0] !== '' && descriptions[row[1] ?? ''] !== undefined)
    .map((row) => ({ query: row[0] ?? '', tools: [row[1] ?? ''] }));
  const golden = JSON.parse(file('multi_tool_query_golden.json')) as { query: string; tool: string[] }[];
  const multi = golden.map((entry) => ({ query: entry.query, tools: entry.tool }));
  return { tools, single, multi };
}
