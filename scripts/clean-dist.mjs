// Removes dist/ before `npm pack` or `npm publish` rebuild it (prepack, then prepare), so a tarball made from a
// working copy ships only what the current sources compile to, not files left by an earlier build.
import { rm } from 'node:fs/promises';

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
