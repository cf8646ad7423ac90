/**
 * Vite wraps each dynamic `import()` of the browser build in a helper that first fetches the
 * imported chunk's dependencies (module preloads and stylesheets) and reports a failure as a
 * `vite:preloadError` event. With `build.modulePreload: false` and the whole stylesheet in the
 * root layout, every one of those calls is given no dependencies, and nothing listens for the
 * event: the helper only calls the import, yet its half a kilobyte (gzip) is part of every
 * page's first load. This plugin makes it exactly that call. A build whose dynamic imports do
 * come to need dependencies (a lazy chunk with its own CSS) fails here, rather than losing them.
 */
import type { Plugin } from 'vite';

/** The id Vite gives its preload helper module. */
export const PRELOAD_HELPER_ID = '\0vite/preload-helper.js';

/** The helper's one export, reduced to the import it wraps. */
export const PLAIN_HELPER = 'export const __vitePreload = (load) => load();';

export function plainDynamicImports(): Plugin {
  return {
    name: 'plain-dynamic-imports',
    enforce: 'pre',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'client',
    load(id) {
      if (id === PRELOAD_HELPER_ID) return PLAIN_HELPER;
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type === 'chunk' && chunk.code.includes('__vite__mapDeps'))
          this.error(`${chunk.fileName}: a dynamic import has dependencies to preload`);
      }
    },
  };
}
