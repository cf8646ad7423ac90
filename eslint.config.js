import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const browserNeverImportsServer = {
  group: ['**/*.server', '**/*.server.ts', '~/server/**', '../server/**', '../../server/**'],
  message: 'Browser code never imports server modules.',
};

export default tseslint.config(
  {
    ignores: [
      'build/',
      'build-voice/',
      'node_modules/',
      '.react-router/',
      'data/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX, 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // The import boundaries of docs/ARCHITECTURE: lib, content, components -> features -> app, server.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/lib',
              from: ['./src/features', './src/app', './src/server', './src/components'],
            },
            {
              target: './src/content',
              from: ['./src/features', './src/app', './src/server', './src/components', './src/lib'],
            },
            { target: './src/components', from: ['./src/features', './src/app', './src/server'] },
            { target: './src/features', from: ['./src/app'] },
            { target: './src/app', from: ['./src/server'] },
          ],
        },
      ],
    },
    settings: { 'import-x/resolver': { typescript: true, node: true } },
  },
  {
    files: ['src/app/**', 'src/components/**', 'src/features/**', 'src/lib/**', 'src/content/**'],
    ignores: ['src/**/*.server.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [browserNeverImportsServer] }] },
  },
  {
    files: ['src/features/*/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../features/*', '~/features/*'],
              message: 'A feature never imports another feature.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/features/*/**'],
    ignores: ['src/**/*.server.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../features/*', '~/features/*'],
              message: 'A feature never imports another feature.',
            },
            browserNeverImportsServer,
          ],
        },
      ],
    },
  },
  {
    // Playwright fixtures call a function named `use`: not a React hook.
    files: ['tests/**', 'playwright.config.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    files: ['**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/server/kit/config.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only src/server/kit/config.ts reads process.env.' },
      ],
    },
  },
);
