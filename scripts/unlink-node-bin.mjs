// The `node` dev dependency (Node 24, for the conformance referee and the second test leg) links itself as
// node_modules/.bin/node, and npm puts that folder first on PATH in every script: `npm start`, `npm test` and
// every `#!/usr/bin/env node` tool they run would then use Node 24 instead of the machine's Node. Removing the
// link keeps scripts on the machine's Node; scripts/node24.mjs finds the binary where the package keeps it.
import { lstat, readlink, unlink } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const link = fileURLToPath(new URL('../node_modules/.bin/node', import.meta.url));
try {
  const stat = await lstat(link);
  if (stat.isSymbolicLink() && (await readlink(link)).includes('node/bin/node')) await unlink(link);
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}
