// The package version, read once from package.json so the server reports what is installed.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export const FORESIGHT_VERSION: string = manifest.version;
