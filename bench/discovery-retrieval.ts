// Runs the discovery retrieval bench alone and prints its table: `node --import tsx bench/discovery-retrieval.ts`.
import { formatDiscoveryRetrieval, measureDiscoveryRetrieval } from './lib/discovery-retrieval.js';

try {
  process.stdout.write(`${formatDiscoveryRetrieval(measureDiscoveryRetrieval())}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
