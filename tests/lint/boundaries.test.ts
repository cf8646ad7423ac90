/**
 * The lint configuration encodes the layers of docs/ARCHITECTURE.md. Each case lints a few
 * lines of code as if they were a file at a real place in the tree (so the zones of
 * eslint.config.js apply) and imports real modules (so the resolver finds them): every rule
 * must report its deliberately wrong import with its own message, and the imports the arrows
 * allow must pass.
 */
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const cwd = fileURLToPath(new URL('../..', import.meta.url));
const ZONE = 'import-x/no-restricted-paths';

const messages = {
  content: 'src/content imports nothing of ours but content.',
  lib: 'src/lib imports only lib and content: never a feature, a route, a component or server code.',
  components:
    'src/components imports only components, the contract, lib and content: never a feature, a route or server code.',
  contract:
    'src/contract (what the console in the browser and the server agree on) imports only the contract, lib and content.',
  sibling: (feature: string) =>
    `A feature never imports another feature (this is src/features/${feature}): what two features share belongs in src/components, src/lib, src/content or src/server/kit.`,
  featureUpward:
    'A feature never imports a route (src/app), the composition root (src/server/root) or the console (src/console, src/server/console): they import the feature.',
  consoleBrowser:
    "The console in the browser (src/console) never imports a route or server code: it shows the features' screens and talks to the server through the contract (src/contract).",
  consoleServer:
    'The console API (src/server/console) never imports the composition root, a route or a component: the root registers it.',
  consoleTables:
    "The console API (src/server/console) never reads a feature's tables: it goes through the registry of personal data or the feature's exported functions.",
  browser: 'Browser code never imports server code (*.server.ts, src/server).',
  app: "src/app never imports server code (src/server, a feature's *.server.ts): its pages are prerendered and run in the browser.",
  serverKit:
    'The server kit never imports a feature, the console, the composition root, a route or a component: they build on it, not the other way round.',
  processEnv: "'process.env' is restricted from being used. Only src/server/kit/config.ts reads process.env.",
};

let eslint: ESLint;

beforeAll(() => {
  // no-unresolved proves that every import below reaches a real file: an import the resolver
  // cannot follow is never checked against the zones, so a passing case would prove nothing.
  eslint = new ESLint({ cwd, overrideConfig: { rules: { 'import-x/no-unresolved': 'error' } } });
});

async function lint(filePath: string, code: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages;
}

/** The one report a wrong import must produce: the zone rule, on that import, with the zone's message. */
function zoneReport(specifier: string, message: string) {
  return {
    ruleId: ZONE,
    message: `Unexpected path "${specifier}" imported in restricted zone. ${message}`,
  };
}

async function expectOnlyZoneReport(filePath: string, specifier: string, message: string) {
  const reported = await lint(filePath, `import * as wrong from '${specifier}';\nexport { wrong };\n`);
  expect(reported.map(({ ruleId, message }) => ({ ruleId, message }))).toEqual([
    zoneReport(specifier, message),
  ]);
}

describe('lint: a wrong import is reported by the rule that forbids it', { timeout: 60_000 }, () => {
  it('content imports nothing of ours but content', async () => {
    await expectOnlyZoneReport('src/content/example.ts', '~/lib/sanitize', messages.content);
  });

  it('lib never imports a component (nor a feature, a route or server code)', async () => {
    await expectOnlyZoneReport('src/lib/example.ts', '~/components/ui/icon', messages.lib);
  });

  it('components never import a feature (nor a route or server code)', async () => {
    await expectOnlyZoneReport(
      'src/components/ui/example.tsx',
      '~/features/contact/contact-schema',
      messages.components,
    );
  });

  it('a feature never imports a sibling feature, by a relative path or by ~/features', async () => {
    await expectOnlyZoneReport(
      'src/features/guide/example.ts',
      '../newsletter/newsletter-schema',
      messages.sibling('guide'),
    );
    await expectOnlyZoneReport(
      'src/features/contact/example.server.ts',
      '~/features/newsletter/newsletter-schema',
      messages.sibling('contact'),
    );
    // Tests are part of their feature too.
    await expectOnlyZoneReport(
      'src/features/guide/example.test.ts',
      '../newsletter/newsletter-schema',
      messages.sibling('guide'),
    );
  });

  it('a feature never imports the composition root (nor a route)', async () => {
    await expectOnlyZoneReport(
      'src/features/contact/example.server.ts',
      '~/server/root/forms/dispatch-table',
      messages.featureUpward,
    );
  });

  it('a feature never imports the console, in the browser or on the server', async () => {
    await expectOnlyZoneReport(
      'src/features/booking/example.server.ts',
      '~/server/console/audit',
      messages.featureUpward,
    );
    await expectOnlyZoneReport(
      'src/features/booking/example.tsx',
      '~/console/layout',
      messages.featureUpward,
    );
  });

  it("the console in the browser never imports server code (a feature's either); the console API never imports the root", async () => {
    await expectOnlyZoneReport(
      'src/console/example.tsx',
      '~/features/booking/booking-decisions.server',
      messages.consoleBrowser,
    );
    await expectOnlyZoneReport('src/console/example.tsx', '~/server/console/inbox', messages.consoleBrowser);
    await expectOnlyZoneReport('src/server/console/example.ts', '~/server/root/app', messages.consoleServer);
  });

  it("the console API never reads a feature's tables", async () => {
    await expectOnlyZoneReport(
      'src/server/console/example.ts',
      '~/features/booking/tables.server',
      messages.consoleTables,
    );
    await expectOnlyZoneReport(
      'src/server/console/example.ts',
      '../../features/newsletter/tables.server',
      messages.consoleTables,
    );
  });

  it('the contract imports only the contract, lib and content', async () => {
    await expectOnlyZoneReport('src/contract/example.ts', '~/components/ui/icon', messages.contract);
    await expectOnlyZoneReport('src/contract/example.ts', '~/server/kit/config', messages.contract);
    await expectOnlyZoneReport(
      'src/contract/example.ts',
      '~/features/booking/booking-dates',
      messages.contract,
    );
  });

  it("a feature's browser code never imports server code: its own *.server.ts or the server kit", async () => {
    await expectOnlyZoneReport('src/features/contact/example.tsx', './contact.server', messages.browser);
    await expectOnlyZoneReport('src/features/contact/example.ts', '~/server/kit/config', messages.browser);
  });

  it('src/app never imports server code', async () => {
    await expectOnlyZoneReport('src/app/routes/example.tsx', '~/server/kit/config', messages.app);
    await expectOnlyZoneReport(
      'src/app/routes/example.tsx',
      '~/features/contact/contact.server',
      messages.app,
    );
  });

  it('the server kit never imports a feature or the composition root', async () => {
    await expectOnlyZoneReport(
      'src/server/kit/http/example.ts',
      '~/features/contact/contact.server',
      messages.serverKit,
    );
    await expectOnlyZoneReport('src/server/kit/mail/example.ts', '../../root/app', messages.serverKit);
    await expectOnlyZoneReport('src/server/kit/mail/example.ts', '../../console/audit', messages.serverKit);
  });

  it('only src/server/kit/config.ts reads process.env', async () => {
    const reported = await lint('src/server/root/example.ts', 'export const port = process.env.PORT;\n');
    expect(reported.map(({ ruleId, message }) => ({ ruleId, message }))).toEqual([
      { ruleId: 'no-restricted-properties', message: messages.processEnv },
    ]);
  });
});

describe('lint: the imports the arrows allow are not reported', { timeout: 60_000 }, () => {
  const allowed: [filePath: string, specifiers: string[]][] = [
    ['src/content/example.ts', ['./site']],
    ['src/lib/example.ts', ['./sanitize', '~/content/site']],
    ['src/components/ui/example.tsx', ['./icon', '~/lib/sanitize', '~/content/site']],
    [
      'src/features/contact/example.tsx',
      ['./contact-schema', '~/components/ui/icon', '~/lib/api-client', '~/content/forms'],
    ],
    [
      'src/features/contact/example.server.ts',
      ['./contact-schema', '~/server/kit/http/form-handler', '~/lib/zod', '~/content/site'],
    ],
    ['src/features/contact/example.test.ts', ['./contact.server', './contact-schema']],
    [
      'src/app/routes/example.tsx',
      ['~/features/contact/contact-form', '~/components/ui/icon', '~/content/site'],
    ],
    // A loader reads content at build time (decision 022).
    ['src/app/routes/example.tsx', ['~/content/articles.server', '~/app/articles.server']],
    ['src/server/kit/http/example.ts', ['../config', '~/lib/sanitize', '~/content/site']],
    [
      'src/console/example.tsx',
      [
        '~/contract/console',
        '~/features/booking/booking-dates',
        '~/components/ui/icon',
        '~/lib/api-client',
        '~/content/site',
      ],
    ],
    ['src/contract/example.ts', ['./route', '~/lib/zod', '~/lib/patterns', '~/content/site']],
    ['src/components/ui/example.tsx', ['~/contract/console']],
    [
      'src/server/console/example.ts',
      [
        '~/features/booking/booking-decisions.server',
        '../kit/config',
        '~/contract/console',
        '~/content/site',
      ],
    ],
    ['src/server/kit/http/example.ts', ['~/contract/route']],
    [
      'src/server/root/forms/example.ts',
      ['~/features/contact/contact.server', '../../kit/config', '~/lib/zod'],
    ],
  ];

  it.each(allowed)('%s may import %j', async (filePath, specifiers) => {
    const code = specifiers.map((specifier, i) => `import * as m${i} from '${specifier}';`).join('\n');
    const exports = `\nexport { ${specifiers.map((_, i) => `m${i}`).join(', ')} };\n`;
    expect(await lint(filePath, code + exports)).toEqual([]);
  });

  it('src/server/kit/config.ts may read process.env', async () => {
    const reported = await lint('src/server/kit/config.ts', 'export const port = process.env.PORT;\n');
    expect(reported.filter(({ ruleId }) => ruleId === 'no-restricted-properties')).toEqual([]);
  });
});
