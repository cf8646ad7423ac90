import type { Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { PLAIN_HELPER, PRELOAD_HELPER_ID, plainDynamicImports } from './preload-helper.ts';

type Hook = (this: unknown, ...args: unknown[]) => unknown;
const plugin = plainDynamicImports();
const load = plugin.load as Hook;
const generateBundle = plugin.generateBundle as Hook;

const chunk = (fileName: string, code: string) => ({ type: 'chunk', fileName, code }) as Rollup.OutputChunk;

describe('plain dynamic imports', () => {
  it('gives Vite a preload helper that only calls the import', async () => {
    expect(load.call({}, PRELOAD_HELPER_ID)).toBe(PLAIN_HELPER);
    expect(load.call({}, '/repo/src/app/root.tsx')).toBeUndefined();
    const { __vitePreload } = (await import(`data:text/javascript,${encodeURIComponent(PLAIN_HELPER)}`)) as {
      __vitePreload: (load: () => Promise<string>) => Promise<string>;
    };
    await expect(__vitePreload(() => Promise.resolve('chunk'))).resolves.toBe('chunk');
  });

  it('fails a build in which a dynamic import has dependencies to preload', () => {
    const errors: string[] = [];
    const context = { error: (message: string) => errors.push(message) };
    generateBundle.call(context, {}, { 'a.js': chunk('a.js', 'import("./b.js")') });
    expect(errors).toEqual([]);
    generateBundle.call(
      context,
      {},
      {
        'a.js': chunk(
          'a.js',
          'const __vite__mapDeps=(i)=>i;__vitePreload(()=>import("./b.js"),__vite__mapDeps([0]))',
        ),
      },
    );
    expect(errors).toEqual(['a.js: a dynamic import has dependencies to preload']);
  });
});
