#!/usr/bin/env node
// The `foresight` command: a thin layer over createHost.
import { Command, Option } from 'commander';
import { redactSecrets } from '../config/index.js';
import { describeThrown } from '../host/index.js';
import { FORESIGHT_VERSION } from '../version.js';
import { CliError, callCommand, checkCommand, serveCommand, statsCommand, toolsCommand } from './commands.js';

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** --log-level of the one-shot commands that wait on plugins: info shows their retries as progress lines. */
const logLevelOption = () =>
  new Option(
    '--log-level <level>',
    'log records to stderr from this level up (default info: shows retries while waiting)',
  ).choices(LOG_LEVELS);

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
  .action((options) => serveCommand(options));

program
  .command('tools')
  .description('list the published tools as a client sees them')
  .option('-c, --config <file>', 'config file')
  .option('--json', 'print the full tool definitions as JSON')
  .addOption(logLevelOption())
  .action((options) => toolsCommand(options));

program
  .command('call')
  .description('call one tool through the full host and print its result')
  .argument('<tool>', 'published tool name, e.g. workspace__glob')
  .argument('[json]', 'arguments as a JSON object')
  .option('-c, --config <file>', 'config file')
  .option('--json', 'print the whole CallToolResult as JSON')
  .action((tool: string, json: string | undefined, options) => callCommand(tool, json, options));

program
  .command('check')
  .description('validate the config, build and start every plugin, report problems and exit')
  .option('-c, --config <file>', 'config file')
  .addOption(logLevelOption())
  .action((options) => checkCommand(options));

program
  .command('stats')
  .description("print the planner's counters and what it learned, from its state file (starts no plugin)")
  .option('-c, --config <file>', 'config file (for [planner] state_file)')
  .option('--json', 'print the state and the ranked edges as JSON')
  .action((options) => statsCommand(options));

program.parseAsync(process.argv).catch((error: unknown) => {
  // A plugin's start failure may quote what its server echoed back, credentials included.
  process.stderr.write(`foresight: ${redactSecrets(describeThrown(error))}\n`);
  process.exit(error instanceof CliError ? error.exitCode : 1);
});
