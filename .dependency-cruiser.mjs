// The layout's import rules (docs/architecture.md, "Layout"), checked on src/ by `npm run lint`.
// Type-only imports count: a loop through types still ties the modules' contracts together.

/** An area: a folder under src/ (plugins/<name> for each plugin). */
const AREA = '^src/(plugins/[^/]+|[^/]+)/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Modules form no import loop, type-only imports included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycle',
      severity: 'error',
      comment: 'Areas form no import loop either: one area builds on another, never both ways.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-is-the-floor',
      severity: 'error',
      comment:
        'src/contract/ is what every area and plugin shares: it imports nothing of ours outside itself.',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/contract/' },
    },
    {
      name: 'areas-meet-at-entries',
      severity: 'error',
      comment:
        'Another area is reached through its index.ts, which states its public surface, never its insides.',
      from: { path: AREA },
      to: { path: AREA, pathNot: ['^src/$1/', '/index\\.ts$'] },
    },
    {
      name: 'root-meets-areas-at-entries',
      severity: 'error',
      comment: 'The composition root and the package entry reach each area through its index.ts.',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: AREA, pathNot: '/index\\.ts$' },
    },
    {
      name: 'plugins-read-the-contract',
      severity: 'error',
      comment:
        'A plugin builds on the contract and the provider kit only: never on the host, the planner or another area.',
      from: { path: '^src/plugins/([^/]+)/' },
      to: {
        path: '^src/',
        pathNot: ['^src/contract/index\\.ts$', '^src/plugins/kit/index\\.ts$', '^src/plugins/$1/'],
      },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
