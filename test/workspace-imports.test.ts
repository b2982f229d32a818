// The files a source file imports by relative path, as the planner projects them for read_file → read_file.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importedFiles } from '../src/plugins/workspace/imports.js';
import { openRoot, type WorkspaceRoot } from '../src/plugins/workspace/paths.js';

let dir: string;
let root: WorkspaceRoot;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'foresight-imports-'));
  for (const file of [
    'src/a.ts',
    'src/b.ts',
    'src/ui/view.tsx',
    'src/lib/index.ts',
    'src/plain.js',
    'docs/x.md',
  ])
    await mkdir(join(dir, file, '..'), { recursive: true }).then(() => writeFile(join(dir, file), '//\n'));
  root = await openRoot(dir);
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('importedFiles', () => {
  it('resolves relative specifiers the way TypeScript and Node do, in order of first appearance', () => {
    const text = [
      "import { b } from './b.js';",
      "import View from './ui/view.jsx';",
      "export * from './lib';",
      "const plain = require('./plain.js');",
      "const later = await import('./b.js');",
      "import z from 'zod';",
      "import { x } from '@scope/pkg/sub';",
    ].join('\n');
    expect(importedFiles(root, 'src/a.ts', text, 20)).toEqual([
      'src/b.ts',
      'src/ui/view.tsx',
      'src/lib/index.ts',
      'src/plain.js',
    ]);
  });

  it('leaves out what does not exist or lies outside the root, and stops at the limit', () => {
    const text = [
      "import '../../outside.js';",
      "import { gone } from './gone.js';",
      "import { b } from './b.js';",
      "import '../docs/x.md';",
      "import { a } from './a.js';",
    ].join('\n');
    expect(importedFiles(root, 'src/a.ts', text, 20)).toEqual(['src/b.ts', 'docs/x.md', 'src/a.ts']);
    expect(importedFiles(root, 'src/a.ts', text, 1)).toEqual(['src/b.ts']);
  });

  it('gives nothing for a path it cannot place', () => {
    expect(importedFiles(root, '../escape.ts', "import './b.js';", 20)).toEqual([]);
  });
});
