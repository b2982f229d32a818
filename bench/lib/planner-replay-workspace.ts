// The planner replay's workspace: a generated TypeScript project of about 290 files in a temp dir, and the
// glob patterns and grep targets the scripted agent searches it with. Deterministic for a given seed.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRandom, mixSeed } from './corpus-sessions.js';

const MODULES = [
  'auth',
  'billing',
  'catalog',
  'checkout',
  'config',
  'events',
  'inventory',
  'notify',
  'orders',
  'payments',
  'search',
  'users',
] as const;
const ROLES = [
  'index',
  'service',
  'store',
  'types',
  'routes',
  'errors',
  'cache',
  'validate',
  'client',
  'mapper',
  'events',
  'metrics',
  'policy',
  'queue',
  'format',
  'worker',
] as const;
const TESTED_ROLES = ['service', 'store', 'routes', 'validate', 'mapper'] as const;
const SHARED = [
  'logger',
  'errors',
  'http',
  'ids',
  'time',
  'retry',
  'settings',
  'metrics',
  'cache',
  'queue',
  'bus',
  'schema',
  'format',
  'result',
  'paging',
  'guard',
] as const;
const VERBS = ['create', 'read', 'update', 'load', 'apply', 'build', 'resolve', 'check'] as const;

export interface GrepTarget {
  pattern: string;
  /** Only files matching this glob (the grep tool's `glob`), or every file. */
  glob?: string;
}

export interface ReplayWorkspace {
  root: string;
  /** Every file, relative to root, sorted: the agent's random-file fallback. */
  files: string[];
  /** What the agent globs for, in a fixed order. */
  globPatterns: string[];
  /** What the agent greps for, in a fixed order: symbols used in 2 to about 20 files, and shared helpers. */
  grepTargets: GrepTarget[];
  /** The files each source file imports, in the order its import lines name them. */
  importsOf: Record<string, string[]>;
  remove(): Promise<void>;
}

const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

interface Symbol {
  name: string;
  file: string;
  /** The import specifier other files use for it. */
  from: string;
}

/** One source file: imports of a few symbols, then the file's own exported functions with plausible bodies. */
function sourceFile(own: readonly Symbol[], imports: readonly Symbol[], random: () => number): string {
  const lines: string[] = [`// ${own[0]?.file ?? ''}: generated for the planner replay benchmark.`];
  const byModule = new Map<string, string[]>();
  for (const symbol of imports)
    byModule.set(symbol.from, [...(byModule.get(symbol.from) ?? []), symbol.name]);
  for (const [from, names] of byModule) lines.push(`import { ${names.join(', ')} } from '${from}';`);
  lines.push('');
  for (const symbol of own) {
    const used = imports.filter(() => random() < 0.6);
    lines.push(`/** ${capital(symbol.name.replace(/([A-Z])/g, ' $1').toLowerCase())}. */`);
    lines.push(
      `export function ${symbol.name}(input: Record<string, unknown>, limit = ${Math.floor(random() * 90) + 10}) {`,
    );
    const statements = 4 + Math.floor(random() * 14);
    for (let i = 0; i < statements; i++) {
      const pick = random();
      const callee = used[i % Math.max(1, used.length)]?.name;
      if (callee !== undefined && pick < 0.35)
        lines.push(`  const step${i} = ${callee}(input, limit - ${i});`);
      else if (pick < 0.5)
        lines.push(
          `  if (Object.keys(input).length > limit) throw new Error('${symbol.name}: too many keys');`,
        );
      else if (pick < 0.6) lines.push(`  // TODO: ${symbol.name} should page through results ${i}`);
      else if (pick < 0.8)
        lines.push(`  const value${i} = String(input['field${i}'] ?? '').trim().slice(0, limit);`);
      else
        lines.push(`  for (const key of Object.keys(input)) if (key.startsWith('x${i}')) delete input[key];`);
    }
    lines.push(`  return { ...input, handledBy: '${symbol.name}' };`, '}', '');
  }
  return lines.join('\n');
}

function testFile(module: string, role: string, subjects: readonly Symbol[]): string {
  const names = subjects.map((s) => s.name);
  const lines = [
    `// Tests of src/${module}/${role}.ts.`,
    `import { describe, expect, it } from 'vitest';`,
    `import { ${names.join(', ')} } from '../../src/${module}/${role}.js';`,
    '',
    `describe('${module} ${role}', () => {`,
  ];
  for (const name of names) {
    lines.push(
      `  it('${name} keeps the input fields', () => {`,
      `    expect(${name}({ a: 1 })).toMatchObject({ a: 1, handledBy: '${name}' });`,
      '  });',
    );
  }
  lines.push('});', '');
  return lines.join('\n');
}

/** Writes the tree under a new temp dir; `seed` fixes every name, import and line. */
export async function createReplayWorkspace(seed: number): Promise<ReplayWorkspace> {
  const random = createRandom(mixSeed(seed, 'workspace'));
  const base = await mkdtemp(join(tmpdir(), 'foresight-replay-ws-'));
  const root = join(base, 'project');
  const contents = new Map<string, string>();

  // Symbols first, so any file can import any other file's exports.
  const symbolsOf = new Map<string, Symbol[]>();
  for (const shared of SHARED) {
    const file = `src/shared/${shared}.ts`;
    symbolsOf.set(file, [
      { name: `${VERBS[Math.floor(random() * VERBS.length)] ?? 'read'}${capital(shared)}`, file, from: '' },
    ]);
  }
  for (const module of MODULES) {
    for (const role of ROLES) {
      const file = `src/${module}/${role}.ts`;
      const count = role === 'index' ? 1 : 1 + Math.floor(random() * 3);
      const names = new Set<string>();
      while (names.size < count) {
        const verb = VERBS[Math.floor(random() * VERBS.length)] ?? 'read';
        names.add(
          `${verb}${capital(module)}${capital(role)}${names.size === 0 ? '' : String(names.size + 1)}`,
        );
      }
      symbolsOf.set(
        file,
        [...names].map((name) => ({ name, file, from: '' })),
      );
    }
  }
  const all = [...symbolsOf.values()].flat();
  const importPath = (fromFile: string, target: Symbol) => {
    const [, fromDir] = /^src\/([^/]+)\//.exec(fromFile) ?? [];
    const [, toDir, toName] = /^src\/([^/]+)\/([^/]+)\.ts$/.exec(target.file) ?? [];
    return fromDir === toDir ? `./${toName}.js` : `../${toDir}/${toName}.js`;
  };

  const uses = new Map<string, Set<string>>();
  const importsOf: Record<string, string[]> = {};
  for (const [file, own] of symbolsOf) {
    const [, module] = /^src\/([^/]+)\//.exec(file) ?? [];
    const sameModule = all.filter((s) => s.file !== file && s.file.startsWith(`src/${module}/`));
    const imports: Symbol[] = [];
    const wanted = 1 + Math.floor(random() * 3);
    for (let i = 0; i < wanted; i++) {
      const r = random();
      const pool =
        r < 0.55 ? sameModule : r < 0.8 ? all.filter((s) => s.file.startsWith('src/shared/')) : all;
      const choice = pool[Math.floor(random() * pool.length)];
      if (choice && choice.file !== file && !imports.includes(choice))
        imports.push({ ...choice, from: importPath(file, choice) });
    }
    for (const symbol of imports) uses.set(symbol.name, (uses.get(symbol.name) ?? new Set()).add(file));
    importsOf[file] = [...new Set(imports.map((symbol) => symbol.file))];
    contents.set(file, sourceFile(own, imports, random));
  }
  for (const module of MODULES) {
    for (const role of TESTED_ROLES) {
      const subjects = symbolsOf.get(`src/${module}/${role}.ts`) ?? [];
      const file = `test/${module}/${role}.test.ts`;
      for (const s of subjects) uses.set(s.name, (uses.get(s.name) ?? new Set()).add(file));
      contents.set(file, testFile(module, role, subjects));
    }
    const documented = ROLES.flatMap((role) => symbolsOf.get(`src/${module}/${role}.ts`) ?? []).slice(0, 6);
    const doc = `docs/${module}.md`;
    for (const s of documented) uses.set(s.name, (uses.get(s.name) ?? new Set()).add(doc));
    contents.set(
      doc,
      [
        `# The ${module} module`,
        '',
        `Entry point: \`src/${module}/index.ts\`. Main functions:`,
        '',
        ...documented.map((s) => `- \`${s.name}\` in \`${s.file}\``),
        '',
      ].join('\n'),
    );
  }
  contents.set('README.md', `# Replay shop\n\nModules: ${MODULES.join(', ')}. See docs/.\n`);
  contents.set('package.json', '{ "name": "replay-shop", "private": true, "type": "module" }\n');
  contents.set('tsconfig.json', '{ "compilerOptions": { "strict": true, "module": "NodeNext" } }\n');
  contents.set('.gitignore', 'dist/\nnode_modules/\n');

  for (const [file, text] of contents) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), text);
  }

  // Symbols other files use, by how many: the middle of the range makes listings of a handful of files.
  const grepTargets: GrepTarget[] = [...uses.entries()]
    .filter(([, files]) => files.size >= 2 && files.size <= 20)
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([name], i) => (i % 3 === 0 ? { pattern: `${name}\\(`, glob: '*.ts' } : { pattern: name }));
  grepTargets.push({ pattern: 'TODO: \\w+ should page', glob: '*.ts' }, { pattern: 'throw new Error' });

  const globPatterns = [
    ...MODULES.map((m) => `src/${m}/**/*.ts`),
    ...['service', 'store', 'routes', 'client', 'policy'].map((role) => `src/**/${role}.ts`),
    ...MODULES.slice(0, 6).map((m) => `test/${m}/*.test.ts`),
    'docs/*.md',
    'src/shared/*.ts',
  ];
  return {
    root,
    files: [...contents.keys()].sort(),
    globPatterns,
    grepTargets,
    importsOf,
    remove: () => rm(base, { recursive: true, force: true }),
  };
}
