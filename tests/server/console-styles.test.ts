/**
 * Every class the console's sources use is in the stylesheets the console's page links (the
 * site's and its own, as built): found by Tailwind's own scanner over the console's folders (its
 * shell, its shared pieces, each feature's console/ folder), made into CSS by Tailwind on the
 * site's theme, and each of those selectors looked for in the build. A stylesheet whose sources
 * leave a folder out (as one did: the site's `@source not` lines reached the console's) fails.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compile } from '@tailwindcss/node';
import { Scanner } from '@tailwindcss/oxide';
import { describe, expect, it } from 'vitest';

const BUILD = resolve(process.env.BUILD_DIR ?? 'build');
const ASSETS = join(BUILD, 'client', 'assets');

/** The class selectors of a stylesheet: `.name` with Tailwind's escapes, pseudo-classes cut off. */
function selectorsOf(css: string): Set<string> {
  const found = new Set<string>();
  for (const match of css.matchAll(/(?:^|[\s,{}>~+(])\.((?:\\.|[\w-])+)/g)) found.add(match[1]!);
  return found;
}

describe("the console's styles", () => {
  it('hold every class its sources use', async () => {
    const src = resolve('src');
    // What Tailwind makes of the console's sources on the site's theme, with no exclusions.
    const compiler = await compile(
      `@import 'tailwindcss/theme.css'; @import './app/site-theme.css' reference; @import 'tailwindcss/utilities.css' source(none);`,
      { base: src, onDependency: () => {} },
    );
    const scanner = new Scanner({
      sources: [
        { base: join(src, 'console'), pattern: '**/*.tsx', negated: false },
        { base: join(src, 'components', 'console'), pattern: '**/*.tsx', negated: false },
        { base: src, pattern: 'features/*/console/**/*.tsx', negated: false },
      ],
    });
    const wanted = selectorsOf(compiler.build(scanner.scan()));
    expect(scanner.files.some((file) => file.includes('/features/'))).toBe(true);
    expect(wanted.size).toBeGreaterThan(100);

    const built = readdirSync(ASSETS).filter(
      (name) => name.endsWith('.css') && (name.startsWith('owner-') || name.startsWith('root-')),
    );
    expect(built.some((name) => name.startsWith('owner-'))).toBe(true);
    const have = new Set<string>();
    for (const name of built)
      for (const s of selectorsOf(readFileSync(join(ASSETS, name), 'utf8'))) have.add(s);
    const missing = [...wanted].filter((selector) => !have.has(selector));
    expect(missing).toEqual([]);
  });
});
