import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The repository root: the zones below are paths from here, whatever directory ESLint runs in. */
const root = fileURLToPath(new URL('.', import.meta.url));

/** Every folder of src/features is a feature, and each is its own zone. */
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** Server code: the src/server tree and any `*.server.ts` module (a feature's handler, e-mails, tables). */
const serverCode = ['./src/server/**', './src/**/*.server.{ts,tsx}'];

/**
 * The layers and arrows of docs/ARCHITECTURE.md, checked on resolved paths, so that `~/x`,
 * `../x` and `../../x` are the same import:
 *
 *   src/server/root (composition root) -> src/server/console -> src/features/<name> -> src/server/kit -> src/lib, src/content
 *   src/app (routes) -> src/features/<name> (browser side) -> src/components -> src/lib -> src/content
 *   src/app (the console's route) -> src/console (the console's shell and its cross-feature screens)
 *     -> src/features/<name> (a feature's own console screens) -> src/components (console/ included)
 *   src/contract (the console's contract) is imported by both sides, and imports only lib and content
 *
 * Each zone lists what its files may NOT import; its message says which arrow that would break.
 */
const boundaryZones = [
  {
    target: './src/content',
    from: './src',
    except: ['./content'],
    message: 'src/content imports nothing of ours but content.',
  },
  {
    target: './src/lib',
    from: './src',
    except: ['./lib', './content'],
    message: 'src/lib imports only lib and content: never a feature, a route, a component or server code.',
  },
  {
    target: './src/components',
    from: './src',
    except: ['./components', './lib', './content', './contract'],
    message:
      'src/components imports only components, the contract, lib and content: never a feature, a route or server code.',
  },
  {
    target: './src/contract',
    from: './src',
    except: ['./contract', './lib', './content'],
    message:
      'src/contract (what the console in the browser and the server agree on) imports only the contract, lib and content.',
  },
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`],
    message: `A feature never imports another feature (this is src/features/${feature}): what two features share belongs in src/components, src/lib, src/content or src/server/kit.`,
  })),
  {
    target: './src/features',
    from: ['./src/app', './src/server/root', './src/server/console', './src/console'],
    message:
      'A feature never imports a route (src/app), the composition root (src/server/root) or the console (src/console, src/server/console): they import the feature.',
  },
  {
    target: './src/console',
    from: ['./src/app/**', ...serverCode],
    message:
      "The console in the browser (src/console) never imports a route or server code: it shows the features' screens and talks to the server through the contract (src/contract).",
  },
  {
    target: './src/server/console',
    from: ['./src/server/root', './src/app', './src/components'],
    message:
      'The console API (src/server/console) never imports the composition root, a route or a component: the root registers it.',
  },
  {
    target: './src/server/console',
    from: './src/features/*/tables.server.ts',
    message:
      "The console API (src/server/console) never reads a feature's tables: it goes through the registry of personal data or the feature's exported functions.",
  },
  {
    // A feature's browser modules: everything but its `*.server.ts` files and tests.
    target: './src/features/**/!(*.server|*.test).{ts,tsx}',
    from: serverCode,
    message: 'Browser code never imports server code (*.server.ts, src/server).',
  },
  {
    // A route's loader may read content at build time (src/content/*.server.ts, src/app/*.server.ts):
    // the pages are prerendered, and React Router fails the build if such a module reaches the browser.
    target: './src/app',
    from: ['./src/server/**', './src/features/**/*.server.{ts,tsx}'],
    message:
      "src/app never imports server code (src/server, a feature's *.server.ts): its pages are prerendered and run in the browser.",
  },
  {
    target: './src/server/kit',
    from: [
      './src/features',
      './src/server/root',
      './src/server/console',
      './src/console',
      './src/app',
      './src/components',
    ],
    message:
      'The server kit never imports a feature, the console, the composition root, a route or a component: they build on it, not the other way round.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'build/',
      'build-voice/',
      'node_modules/',
      '.react-router/',
      'data/',
      'test-results/',
      // Scripts that drove release 09db5cd to make a fixture: they run against that release.
      'tests/server/fixtures/',
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
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
    },
    settings: { 'import-x/resolver': { typescript: true, node: true } },
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
