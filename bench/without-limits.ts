// A copy of this checkout's build with the hostile-input limits on the tools/call path switched off, for
// `npm run bench:ab` in direct mode: what those limits cost at this rev, apart from everything else that changed
// since the build before them. Switched off: admission (every call gets a slot at once), the nesting-depth check of
// each stdin line, the stdin bound (reading never pauses), the stdio screen (the listen-stream cap and the
// before-initialize refusal) and the client error-code fix on every answer. The HTTP limits (session caps, request
// timeouts) are not touched: the copy is for the stdio cells.
// Usage: npm run build && node --import tsx bench/without-limits.ts            (writes dist-without-limits/)
//        BENCH_AB_DIRECT=1 BENCH_AB_OTHER=dist-without-limits/cli/main.js BENCH_ERAS_CELLS=stdio npm run bench:ab
// Each change names the text it replaces; a build where that text is gone stops the script, saying which.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exitIfMissing, foresightCliInput } from './lib/inputs.js';
import { ROOT } from './lib/root.js';

const SOURCE = join(ROOT, 'dist');
// Beside dist/, so the copy resolves the same node_modules.
const TARGET = join(ROOT, 'dist-without-limits');

interface Change {
  file: string;
  find: string;
  replace: string;
}

const CHANGES: Change[] = [
  {
    file: 'protocol/admission.js',
    find: '    tryAdmit(client) {',
    replace: '    tryAdmit(client) {\n        return () => { };',
  },
  {
    file: 'protocol/stdio-transport.js',
    find: 'if (nestsDeeperThan(value, this.maxDepth, line.length)) {',
    replace: 'if (false) {',
  },
  {
    file: 'protocol/stdio-transport.js',
    find: '    isPaused() {',
    replace: '    isPaused() {\n        return false;',
  },
  { file: 'protocol/stdio-transport.js', find: 'this.screen?.(parsed.data)', replace: 'undefined' },
  {
    file: 'protocol/client-error-codes.js',
    find: 'export function withClientErrorCodes(transport, era) {',
    replace: 'export function withClientErrorCodes(transport, era) {\n    return transport;',
  },
];

exitIfMissing('without-limits', [foresightCliInput(join(SOURCE, 'cli/main.js'), undefined)]);
rmSync(TARGET, { recursive: true, force: true });
cpSync(SOURCE, TARGET, { recursive: true });
for (const { file, find, replace } of CHANGES) {
  const path = join(TARGET, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(find)) {
    rmSync(TARGET, { recursive: true, force: true });
    console.error(`without-limits: ${file} no longer holds "${find}"; update bench/without-limits.ts`);
    process.exit(1);
  }
  writeFileSync(path, text.replace(find, replace));
}
console.log(`${TARGET}/cli/main.js: this build with the tools/call limits off (${CHANGES.length} changes)`);
