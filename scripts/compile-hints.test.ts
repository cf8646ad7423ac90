import type { Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { COMPILE_HINT, MIN_HINTED_BYTES, compileHints, initialChunks } from './compile-hints.ts';

const APP = '/repo/src/app';
const big = 'x'.repeat(MIN_HINTED_BYTES);

function chunk(fileName: string, options: Partial<Rollup.OutputChunk> = {}): Rollup.OutputChunk {
  return {
    type: 'chunk',
    fileName,
    code: big,
    imports: [],
    isEntry: false,
    facadeModuleId: null,
    ...options,
  } as Rollup.OutputChunk;
}

// The shape of a React Router client build: an entry, route modules, their shared chunks, and
// chunks that only a dynamic import reaches.
function bundle(): Rollup.OutputBundle {
  const items = [
    chunk('entry.client.js', { isEntry: true, imports: ['react-dom.js'] }),
    chunk('react-dom.js', { imports: ['react.js'] }),
    chunk('react.js'),
    chunk('root.js', { facadeModuleId: `${APP}/root.tsx`, imports: ['react.js', 'site.js'] }),
    chunk('home.js', {
      facadeModuleId: `${APP}/routes/home.tsx`,
      imports: ['tiny-icon.js'],
      dynamicImports: ['guide-submit.js'],
    }),
    chunk('tiny-icon.js', { code: 'export const a=1;' }),
    chunk('site.js'),
    chunk('guide-submit.js', {
      isDynamicEntry: true,
      facadeModuleId: '/repo/src/features/guide/guide-submit.ts',
      imports: ['zod.js'],
    }),
    chunk('zod.js'),
  ];
  const assets = { 'style.css': { type: 'asset', fileName: 'style.css', source: '' } as Rollup.OutputAsset };
  return { ...Object.fromEntries(items.map((c) => [c.fileName, c])), ...assets };
}

describe('compile hints', () => {
  it('finds what a page loads first: entries, route modules and their static imports', () => {
    expect([...initialChunks(bundle(), APP)].sort()).toEqual([
      'entry.client.js',
      'home.js',
      'react-dom.js',
      'react.js',
      'root.js',
      'site.js',
      'tiny-icon.js',
    ]);
  });

  it('marks those chunks, except tiny ones, and leaves code loaded on use lazy', () => {
    const output = bundle();
    const plugin = compileHints({ appDirectory: APP });
    const generate = plugin.generateBundle as (this: unknown, o: unknown, b: Rollup.OutputBundle) => void;
    generate.call({}, {}, output);
    generate.call({}, {}, output); // once only, however often it runs
    const hinted = Object.values(output)
      .filter(
        (item): item is Rollup.OutputChunk => item.type === 'chunk' && item.code.startsWith(COMPILE_HINT),
      )
      .map((item) => item.fileName)
      .sort();
    expect(hinted).toEqual(['entry.client.js', 'home.js', 'react-dom.js', 'react.js', 'root.js', 'site.js']);
    expect((output['home.js'] as Rollup.OutputChunk).code).toBe(COMPILE_HINT + big);
    expect((output['zod.js'] as Rollup.OutputChunk).code).toBe(big);
  });
});
