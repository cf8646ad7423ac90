/**
 * Compile hints for the code every page runs at start (decision 016).
 *
 * V8 compiles a function lazily, on the main thread, the first time it is called. Hydration calls
 * most of React, React Router and the page's own components once, so on a slow phone that
 * compiling lands in the long tasks after the first paint. A file that starts with the magic
 * comment `//# allFunctionsCalledOnLoad` is compiled whole while it streams in, on a background
 * thread (Chromium 136 and later; other engines read an ordinary comment).
 *
 * The hint goes on the chunks a page loads first: the entry, the route modules and everything
 * they import statically. Chunks loaded on use (the voice SDK, zod and the form schemas, the toast
 * area) stay lazy: compiling code that may never run would only cost memory. Chunks under
 * `MIN_HINTED_BYTES` go without: their few functions compile in microseconds, and the hint's
 * bytes would be a visible part of them.
 */
import type { Plugin, Rollup } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
export const MIN_HINTED_BYTES = 4096;

/**
 * The file names of the chunks a page loads before it hydrates: entries and route modules
 * (modules of `appDirectory`), and their static imports, transitively.
 * `appDirectory` is the absolute path of the route modules' folder.
 */
export function initialChunks(bundle: Rollup.OutputBundle, appDirectory: string): Set<string> {
  const chunks = new Map(
    Object.values(bundle)
      .filter((item): item is Rollup.OutputChunk => item.type === 'chunk')
      .map((chunk) => [chunk.fileName, chunk]),
  );
  const prefix = appDirectory.replace(/\/?$/, '/');
  const pending = [...chunks.values()]
    .filter((chunk) => chunk.isEntry || chunk.facadeModuleId?.startsWith(prefix))
    .map((chunk) => chunk.fileName);
  const initial = new Set<string>();
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    const chunk = chunks.get(name);
    if (initial.has(name) || !chunk) continue;
    initial.add(name);
    pending.push(...chunk.imports);
  }
  return initial;
}

/**
 * The Vite plugin: after minification, the hint becomes the first line of each initial chunk
 * of the browser build.
 */
export function compileHints({ appDirectory }: { appDirectory: string }): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    generateBundle(_options, bundle) {
      for (const name of initialChunks(bundle, appDirectory)) {
        const chunk = bundle[name];
        if (chunk?.type !== 'chunk' || chunk.code.length < MIN_HINTED_BYTES) continue;
        if (!chunk.code.startsWith(COMPILE_HINT)) chunk.code = COMPILE_HINT + chunk.code;
      }
    },
  };
}
