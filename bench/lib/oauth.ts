// The oauth bench: tools/call echo over Streamable HTTP against two Foresight servers side by side, one checking
// the static bearer token (server.auth_token_env), one verifying an OAuth access token (a JWT from a local issuer,
// [auth]); in both eras, sequential and with calls in flight. A verified JWT is remembered by its hash until it
// expires, so after the first call the two should cost about the same.
import { randomBytes } from 'node:crypto';
import { type LocalIssuer, startLocalIssuer } from '../../test/support/local-issuer.js';
import type { BenchEra, Endpoint } from './endpoint.js';
import { ERAS } from './eras-settings.js';
import { startHttpEndpoint } from './http-endpoint.js';
import { runCallRounds } from './measure.js';
import type { OAuthBenchSettings } from './oauth-settings.js';
import { type OAuthCell, type OAuthReport } from './oauth-report.js';
import { callRatios, callSide } from './report.js';
import { type BenchSettings, nodeFlags } from './settings.js';
import type { BenchWorkspace } from './workspace.js';

type Log = (line: string) => void;

const TOOL = 'echo__echo';
const AUDIENCE = 'https://foresight.bench/mcp';
const TOKEN_VARIABLE = 'BENCH_STATIC_TOKEN';
const URL_LINE = /serving Streamable HTTP on ([^\s"]+)/;

interface Side {
  /** `static` or `jwt`: names its CPU profile. */
  name: string;
  label: string;
  config: string;
  bearer: string;
  env?: Record<string, string>;
}

async function startSide(
  workspace: BenchWorkspace,
  bench: BenchSettings,
  side: Side,
  era: BenchEra,
): Promise<Endpoint> {
  return startHttpEndpoint({
    label: side.label,
    args: [
      ...nodeFlags(bench, `oauth-${side.name}-${era}`),
      bench.foresightCli,
      'serve',
      '--config',
      side.config,
      '--http',
      '127.0.0.1:0',
    ],
    cwd: workspace.dir,
    urlFromOutput: (output) => {
      const url = URL_LINE.exec(output)?.[1];
      return url === undefined ? undefined : new URL(url);
    },
    era,
    ...(side.env ? { env: side.env } : {}),
    headers: { authorization: `Bearer ${side.bearer}` },
  });
}

/** The two configs: the echo plugin behind the static token, and behind [auth] with `issuer`. */
async function writeSides(workspace: BenchWorkspace, issuer: LocalIssuer, era: BenchEra): Promise<Side[]> {
  const staticToken = randomBytes(32).toString('base64url');
  const staticConfig = await workspace.writeConfig(
    `foresight-oauth-static-${era}.toml`,
    ['echo'],
    1,
    `[server]\nauth_token_env = "${TOKEN_VARIABLE}"`,
  );
  const jwtConfig = await workspace.writeConfig(
    `foresight-oauth-jwt-${era}.toml`,
    ['echo'],
    1,
    ['[auth]', `issuer = "${issuer.issuer}"`, `audience = "${AUDIENCE}"`, 'algorithms = ["ES256"]'].join(
      '\n',
    ),
  );
  // One token for the whole cell, as one agent holds one: an hour is longer than any run.
  const jwt = await issuer.sign({ sub: 'bench', aud: AUDIENCE, scope: 'mcp:tools' });
  return [
    {
      name: 'static',
      label: 'A static token',
      config: staticConfig,
      bearer: staticToken,
      env: { [TOKEN_VARIABLE]: staticToken },
    },
    { name: 'jwt', label: 'B OAuth JWT', config: jwtConfig, bearer: jwt },
  ];
}

async function measureEra(
  workspace: BenchWorkspace,
  bench: BenchSettings,
  settings: OAuthBenchSettings,
  issuer: LocalIssuer,
  era: BenchEra,
  log: Log,
): Promise<OAuthCell[]> {
  const [staticSide, jwtSide] = await writeSides(workspace, issuer, era);
  const started: Endpoint[] = [];
  try {
    const a = await startSide(workspace, bench, staticSide!, era);
    started.push(a);
    const b = await startSide(workspace, bench, jwtSide!, era);
    started.push(b);
    const protocolVersion = b.client.getNegotiatedProtocolVersion() ?? 'unknown';
    const cells: OAuthCell[] = [];
    for (const inFlight of [...new Set([1, settings.inFlight])]) {
      const id = `http-${era}-${inFlight === 1 ? 'seq' : `x${inFlight}`}`;
      log(
        `oauth ${id} (${protocolVersion}): ${settings.warmupCalls} warm-up + ${settings.rounds} × ${settings.calls}`,
      );
      const samples = await runCallRounds(
        { endpoint: a, tool: TOOL },
        { endpoint: b, tool: TOOL },
        {
          rounds: settings.rounds,
          calls: settings.calls,
          warmupCalls: settings.warmupCalls,
          inFlight,
          onRound: (round, msA, msB) =>
            log(
              `oauth ${id} round ${round + 1}/${settings.rounds}: static ${msA.toFixed(0)} ms, JWT ${msB.toFixed(0)} ms`,
            ),
        },
      );
      const staticReport = callSide(a.label, samples.a, a.connectMs);
      const jwtReport = callSide(b.label, samples.b, b.connectMs);
      const ratios = callRatios(staticReport, jwtReport);
      cells.push({
        id,
        era,
        protocolVersion,
        inFlight,
        callsPerRound: settings.calls,
        static: staticReport,
        jwt: jwtReport,
        ...ratios,
        ratioMet: ratios.ratio >= settings.targetRatio,
      });
    }
    return cells;
  } finally {
    await Promise.allSettled(started.map((endpoint) => endpoint.close()));
  }
}

export async function measureOAuth(
  workspace: BenchWorkspace,
  bench: BenchSettings,
  settings: OAuthBenchSettings,
  log: Log,
): Promise<OAuthReport> {
  const issuer = await startLocalIssuer();
  try {
    const cells: OAuthCell[] = [];
    for (const era of ERAS) cells.push(...(await measureEra(workspace, bench, settings, issuer, era, log)));
    // The key set is fetched once per JWT server (two), whatever the number of calls: the cache at work.
    return { settings, foresightCli: bench.foresightCli, jwksFetches: issuer.hits.get('/jwks') ?? 0, cells };
  } finally {
    await issuer.close();
  }
}
