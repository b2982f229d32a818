// Vitest setup, run before each test file: points FORESIGHT_DATA_DIR at a fresh temp dir, so no test
// (nor a CLI it spawns: children inherit the variable) reads or writes the real user's data directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

const dataDir = mkdtempSync(path.join(tmpdir(), 'foresight-data-'));
process.env.FORESIGHT_DATA_DIR = dataDir;

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});
