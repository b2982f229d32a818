// The Node 24 binary the `node` dev dependency brings (npm registry, exact-pinned), for what needs Node >= 22: the
// official conformance referee, and the second run of the test suite. Run as a script, it runs its arguments
// under that binary: `node scripts/node24.mjs node_modules/vitest/vitest.mjs run`.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const NODE24 = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));

/** Throws with what to do when the binary is missing (an install without dev dependencies). */
export function requireNode24() {
  if (!existsSync(NODE24))
    throw new Error(`no Node 24 binary at ${NODE24}: run \`npm ci\` (it installs the "node" dev dependency)`);
  return NODE24;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const child = spawn(requireNode24(), process.argv.slice(2), { stdio: 'inherit' });
  child.once('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
