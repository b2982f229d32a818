// `node --import ./test/support/module-trace.mjs …` (or in NODE_OPTIONS, so child processes are traced too): every
// module the process loads is appended, as a file: URL on a line of its own, to the file MODULE_TRACE_FILE names.
// A test then knows which code ran (e.g. that a run stopped before a part's code was loaded) without timing it.
import { register } from 'node:module';

const file = process.env.MODULE_TRACE_FILE;
if (file) register('./module-trace-hooks.mjs', import.meta.url, { data: { file } });
