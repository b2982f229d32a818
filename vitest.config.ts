import { defineConfig } from 'vitest/config';
import { TEST_TIMEOUT_MS } from './test/support/patience.js';

/** The whole suite, on the machine's Node (Node 20 in CI); vitest.node24.config.ts narrows it for the second leg. */
export const suite = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each test file gets its own FORESIGHT_DATA_DIR, never the user's.
    setupFiles: ['test/setup-data-dir.ts'],
    // Waits, not speed limits: a test waits on events, and these only end one that never comes (see patience.ts).
    testTimeout: TEST_TIMEOUT_MS,
    hookTimeout: TEST_TIMEOUT_MS,
    pool: 'forks',
    // Most files spend their time waiting on servers and child processes, so two files at a time fill two cores
    // (vitest's default on a 2-core machine is one).
    maxWorkers: 2,
  },
});

export default suite;
