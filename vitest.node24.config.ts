// The second Node leg (`npm run test:unit:node24`, on the Node 24 binary of the `node` dev dependency): the files
// whose behaviour rests on what differs between Node versions, rather than the whole suite again. Node 20 runs
// every file (vitest.config.ts). A file named here that no longer exists fails the run, so the list cannot rot.
import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { suite } from './vitest.config.js';

/** By what in Node they lean on. */
const NODE_DEPENDENT = {
  // stdio framing, Streamable HTTP (node:http, web streams), both protocol eras end to end
  transports: [
    'e2e-stdio',
    'e2e-http',
    'eras-stdio',
    'eras-http',
    'http-direct-posts',
    'http-security',
    'http-exposure',
    'limits-http',
    'mrtr-http',
    'tasks-http',
    'agent-streams',
    'fuzz-stdio-frames',
    'fuzz-http',
    'param-headers',
    'modern-plain-calls',
    'principal-isolation-http',
  ],
  // worker_threads: plugin isolation and the relay of calls into and out of a worker
  isolation: ['host-worker', 'host-isolation', 'worker-relay', 'audit-worker'],
  // node:crypto and WebCrypto (jose): signed request state, OAuth tokens, JWKS
  crypto: [
    'jwt-verifier',
    'oauth-http',
    'oauth-introspection',
    'oauth-sdk-client',
    'oauth-scopes',
    'mrtr-limits',
  ],
  // child processes: the CLI, stdio upstreams and their restarts
  processes: [
    'cli-commands',
    'cli-check-health',
    'cli-logs',
    'upstream-stdio',
    'upstream-restart-calls',
    'upstream-stderr-tail',
    'heap-release',
    'ops-drain',
  ],
  // fetch (undici) against loopback REST and MCP servers
  fetch: [
    'upstream-http',
    'upstream-http-recovery',
    'upstream-http-session-renewal',
    'github-fixtures-replay',
    'gitlab-errors',
    'jira-errors',
    'clickup-errors',
  ],
  // the file system: globbing, grep, watching and path confinement
  io: ['workspace-confinement', 'workspace-glob', 'workspace-grep', 'workspace-resources'],
};

const files = Object.values(NODE_DEPENDENT)
  .flat()
  .map((name) => `test/${name}.test.ts`);
const missing = files.filter((file) => !existsSync(new URL(file, import.meta.url)));
if (missing.length)
  throw new Error(`vitest.node24.config.ts names test files that do not exist: ${missing.join(', ')}`);

export default defineConfig({ ...suite, test: { ...suite.test, include: files } });
