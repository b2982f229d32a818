#!/usr/bin/env node
// The `foresight` command: a thin layer over createHost.
import { Command } from 'commander';
import { redactSecrets } from '../config/index.js';
import { describeThrown } from '../contract/index.js';
import { createLogger } from '../host/index.js';
import { FORESIGHT_VERSION } from '../version.js';
import {
  CliError,
  callCommand,
  checkCommand,
  importDevboyCommand,
  serveCommand,
  statsCommand,
  toolsCommand,
} from './commands.js';

/** The commands that load the config may lay a devboy-tools pipeline config beneath it. */
const PLANNER_CONFIG_OPTION = [
  '--planner-config <file>',
  "a devboy-tools pipeline_config.toml: its planner settings, beneath the config's own",
] as const;

const program = new Command('foresight')
  .description('An MCP server host: contained plugins, schema enrichers and a speculative planner.')
  .version(FORESIGHT_VERSION)
  .showHelpAfterError();

program
  .command('serve', { isDefault: true })
  .description('serve MCP over stdio (default) or Streamable HTTP')
  .option('-c, --config <file>', 'config file (default: ./foresight.toml, else the workspace plugin on .)')
  .option('--http <[host:]port>', 'serve Streamable HTTP on this address (host defaults to 127.0.0.1)')
  .option('--debug', 'include stack traces in errors sent to clients')
  .option(
    '--log-level <level>',
    'trace, debug, info, warn, error, fatal or silent (default: FORESIGHT_LOG_LEVEL, else [server] log_level)',
  )
  .option(...PLANNER_CONFIG_OPTION)
  .action((options) => {
    // A server's stderr is a JSON log: its last words too.
    errorsAsJson = true;
    return serveCommand(options);
  });

program
  .command('tools')
  .description('list the published tools as a client sees them')
  .option('-c, --config <file>', 'config file')
  .option('--json', 'print the full tool definitions as JSON')
  .option(
    '--log-level <level>',
    'trace, debug, info, warn, error, fatal or silent (default: FORESIGHT_LOG_LEVEL, else info: retries show as progress)',
  )
  .option(...PLANNER_CONFIG_OPTION)
  .action((options) => toolsCommand(options));

program
  .command('call')
  .description('call one tool through the full host and print its result')
  .argument('<tool>', 'published tool name, e.g. workspace__glob')
  .argument('[json]', 'arguments as a JSON object')
  .option('-c, --config <file>', 'config file')
  .option('--json', 'print the whole CallToolResult as JSON')
  .option(
    '--log-level <level>',
    'trace, debug, info, warn, error, fatal or silent (default: FORESIGHT_LOG_LEVEL, else info: retries show as progress)',
  )
  .option(...PLANNER_CONFIG_OPTION)
  .action((tool: string, json: string | undefined, options) => callCommand(tool, json, options));

program
  .command('check')
  .description('validate the config, build and start every plugin, report problems and exit')
  .option('-c, --config <file>', 'config file')
  .option(
    '--log-level <level>',
    'trace, debug, info, warn, error, fatal or silent (default: FORESIGHT_LOG_LEVEL, else info: retries show as progress)',
  )
  .option(...PLANNER_CONFIG_OPTION)
  .action((options) => checkCommand(options));

program
  .command('stats')
  .description("print the planner's counters and what it learned, from its state file (starts no plugin)")
  .option('-c, --config <file>', 'config file (for [planner] state_file)')
  .option('--json', 'print the state and the ranked edges as JSON')
  .option(
    '--principal <principal>',
    "show one principal's learned follow-ups (e.g. sub:auth.example.com:248289761001)",
  )
  .action((options) => statsCommand(options));

program
  .command('import-devboy')
  .description(
    'print a devboy-tools pipeline_config.toml as foresight.toml [planner] and [tools] tables; list what cannot be mapped',
  )
  .argument('<file>', 'the devboy-tools pipeline config')
  .option(
    '--workspace-prefix <prefix>',
    "the workspace plugin's prefix, for Claude Code's Read, Glob, Grep, LS",
    'workspace',
  )
  .action((file: string, options) => importDevboyCommand(file, options));

let errorsAsJson = false;

program.parseAsync(process.argv).catch((error: unknown) => {
  // A plugin's start failure may quote what its server echoed back, credentials included.
  if (errorsAsJson) createLogger({ redact: redactSecrets }).error(describeThrown(error));
  else process.stderr.write(`foresight: ${redactSecrets(describeThrown(error))}\n`);
  process.exit(error instanceof CliError ? error.exitCode : 1);
});
