// Where the repository is, for paths the bench resolves (dist/, node_modules/, bench/results/).
import { fileURLToPath } from 'node:url';

/** The repository root (bench/lib/../..), with a trailing slash. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
