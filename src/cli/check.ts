// `foresight check`: each plugin's health, the discovery mode, the planner's models and the tool rules, the cluster's Redis; exits 1 on a fault.
import { discoveryLine } from '../discovery/index.js';
import type { MountedPlugin } from '../host/index.js';
import { CliError } from './cli-error.js';
import { checkCluster } from './cluster.js';
import type { CommonOptions } from './config-load.js';
import { count, pluginLabel, print } from './print.js';
import { withHost } from './with-host.js';

const MARKS: Readonly<Record<MountedPlugin['health']['state'], string>> = {
  ready: 'ok',
  degraded: 'warn',
  starting: 'fail',
  down: 'fail',
};

export async function checkCommand(options: CommonOptions): Promise<void> {
  await withHost(
    options,
    async (host, config) => {
      const mounted = host.plugins.mountedPlugins();
      for (const m of mounted) {
        const { state, detail } = m.health;
        const mark = MARKS[state];
        // The tool rules and [[enrich]] drops may publish fewer tools than the plugin serves: both are shown.
        const published = host.tools.listedOf(m.name).length;
        const counted =
          published === m.tools ? `${m.tools} tools` : `${m.tools} tools, ${published} published`;
        const line = `${mark}  ${pluginLabel(m)}, prefix ${JSON.stringify(m.prefix)}, ${counted}`;
        const why =
          state === 'starting'
            ? `still starting after its start deadline: ${detail ?? ''}`
            : state === 'degraded'
              ? `degraded: ${detail ?? 'serving with less than it should'}`
              : detail;
        print(process.stdout, `${line}${why === undefined ? '' : ` (${why})`}\n`);
      }
      // What the agent would read before its first call, and whether it gets the list or a search.
      print(process.stdout, `note  ${discoveryLine(config.discovery, host.tools.listTools())}\n`);
      const unlisted = host.tools.unlisted();
      for (const { message } of unlisted.filter((u) => u.reason === 'hidden'))
        print(process.stdout, `note  ${message}\n`);
      for (const problem of host.planner.modelProblems())
        print(process.stdout, `warn  planner: ${problem}\n`);
      for (const note of host.planner.modelNotes()) print(process.stdout, `note  planner: ${note}\n`);
      const rules = host.checkRules();
      for (const line of rules.matched) print(process.stdout, `rule  ${line}\n`);
      for (const line of rules.unchecked) print(process.stdout, `note  ${line}\n`);
      for (const line of rules.problems) print(process.stdout, `fail  ${line}\n`);
      const cluster = await checkCluster(config);
      if (cluster) print(process.stdout, `${cluster.line}\n`);
      const failed = unlisted.filter((u) => u.reason === 'failed');
      for (const { message } of failed) print(process.stdout, `fail  ${message}\n`);
      // An [[enrich]] rule that cannot apply to a tool is a config mistake found only once tools exist.
      if (failed.length) throw new CliError(`${count(failed.length, 'tool')} failed enrichment`, 1);
      // A typo in a rule that drops or hides something must not pass as a valid config. Each is listed above.
      if (rules.problems.length)
        throw new CliError(
          `${count(rules.problems.length, 'tool rule')} ${rules.problems.length === 1 ? 'matches' : 'match'} nothing (the fail lines above)`,
          1,
        );
      // A degraded plugin serves (with plainer schemas): its warn line says why, and the config still passes.
      const down = mounted.filter((m) => m.health.state === 'starting' || m.health.state === 'down');
      if (down.length) throw new CliError(`${count(down.length, 'plugin')} not available`, 1);
      if (cluster && !cluster.ok)
        throw new CliError("the cluster's redis is unreachable (the fail line above)", 1);
      const degraded = mounted.filter((m) => m.health.state === 'degraded').length;
      print(
        process.stdout,
        `config is valid: ${count(mounted.length, 'plugin')}${degraded ? ` (${degraded} degraded)` : ''}, ${count(host.tools.listTools().length, 'tool')}\n`,
      );
    },
    true,
  );
}
