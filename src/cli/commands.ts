// The CLI's commands: serve, tools, call, check (each loads the config and runs the full host), stats and
// import-devboy, one module each.
export { CliError } from './cli-error.js';
export type { CommonOptions } from './config-load.js';
export { serveCommand } from './serve.js';
export { callCommand, toolsCommand } from './tool-commands.js';
export { checkCommand } from './check.js';
export { statsCommand } from './stats.js';
export { importDevboyCommand } from './import-devboy.js';
