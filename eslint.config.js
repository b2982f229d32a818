// Lint rules: typescript-eslint's recommended type-aware set, plus the layout rule that areas import
// each other only through their entry module (index.js), and plugins only the host and enrich contracts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const AREAS = 'host|enrich|planner|format|config|protocol|plugins|cli|audit|cluster|ops';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'dist-without-limits/',
      'node_modules/',
      'coverage/',
      'examples/**/*.mjs',
      'test/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { project: './tsconfig.check.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    files: ['src/*/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^\\.\\./(${AREAS})/(?!index\\.js$).+`,
              message: 'Import another area only through its entry module (../<area>/index.js).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/plugins/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(\\.\\./)+(?!(\\.\\./)*(host|enrich)/index\\.js$)(host|enrich|planner|format|config|protocol|cli|create-host)',
              message:
                'Plugins import only the host and enrich entry modules (../../host/index.js, ../../enrich/index.js).',
            },
            {
              regex: '^\\.\\./(?!\\.\\.|kit/index\\.js$)',
              message:
                'A plugin does not reach into another plugin (the shared provider kit, ../kit/index.js, aside).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
