// `foresight import-devboy`: a devboy-tools pipeline config printed as foresight.toml tables.
import { tomlSnippet } from '../config/index.js';
import { readDevboy } from './config-load.js';
import { count } from './print.js';

/** Prints a devboy-tools pipeline config as foresight.toml [planner] and [tools."…"] tables; what it cannot map goes to stderr. */
export async function importDevboyCommand(
  file: string,
  options: { workspacePrefix?: string },
): Promise<void> {
  const imported = await readDevboy(
    file,
    options.workspacePrefix === undefined ? {} : { workspacePrefix: options.workspacePrefix },
  );
  const snippet = tomlSnippet(imported.table);
  process.stdout.write(snippet === '' ? `# nothing in ${file} maps onto Foresight's planner\n` : snippet);
  const unmapped = imported.warnings.length;
  process.stderr.write(
    `foresight: ${unmapped === 0 ? 'every key mapped' : `${count(unmapped, 'key')} not mapped (the warn lines above)`}\n`,
  );
}
