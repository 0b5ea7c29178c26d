import js from '@eslint/js';
import nextPlugin from '@next/eslint-plugin-next';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      'lib/db/generated/**',
      'lib/db/generated-postgres/**',
      'data/**',
      'models-cache/**',
      'public/vendor/**',
      'test-results/**',
      'e2e-artifacts/**',
      'bench-results/**',
      '.bench/**',
      'next-env.d.ts',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@next/next': nextPlugin, 'react-hooks': reactHooks },
    rules: {
      ...nextPlugin.configs.recommended.rules,
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The format's width (.prettierrc.json) holds where prettier cannot break a line too: comments,
    // strings, template literals, URLs and regular expressions (build a long one from pieces).
    rules: {
      'max-len': ['error', { code: 100, tabWidth: 2 }],
    },
  },
  {
    // Arrows point one way: no module reaches itself again through its imports.
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver()],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    // Every function fits on a screen or two. A test file's describe block is a list of cases, not
    // one.
    ignores: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'tests/**'],
    rules: {
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // The engine is a leaf: pure TypeScript shared by the browser and the server.
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'child_process', 'os', 'crypto', 'stream'],
              message: 'engine/ must not import Node built-ins.',
            },
            {
              group: ['next', 'next/*', 'react', 'react-dom', '@prisma/*', 'onnxruntime-*'],
              message: 'engine/ is a leaf: inject runtimes through engine/runtime.ts.',
            },
            {
              group: [
                '../lib/*',
                '../../lib/*',
                '../../../lib/*',
                '@/lib/*',
                '@/workers/*',
                '@/components/*',
                '@/app/*',
              ],
              message: 'engine/ must not import application code.',
            },
          ],
        },
      ],
    },
  },
  {
    // lib/ is the server application: the processes (workers/), the routes (app/) and the UI
    // (components/) use it, never the other way round.
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/(app|components|workers)|(\\.\\./)+(app|components|workers))(/|$)',
              message:
                'lib/ must not import app/, components/ or workers/: inject what it needs instead.',
            },
          ],
        },
      ],
    },
  },
  {
    // components/ runs in the browser too: from lib/ it may take types only (server actions come
    // through app/).
    files: ['components/**/*.tsx', 'components/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/lib|(\\.\\./)+lib)(/|$)',
              allowTypeImports: true,
              message:
                'components/ may import only types from lib/ (server code stays on the server).',
            },
          ],
        },
      ],
    },
  },
);
