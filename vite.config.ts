import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { compileHints } from './scripts/compile-hints.ts';
import { keepRenderBuild } from './scripts/keep-render-build.ts';
import { plainDynamicImports } from './scripts/preload-helper.ts';

/** The modules of the browser's `site` chunk: the site's identity, the pages' meta and its settings. */
const SITE_CHUNK = ['/src/content/site.ts', '/src/lib/seo.ts', '/src/lib/env.ts'];

export default defineConfig({
  plugins: [
    // Vite's preload helper, which has nothing to preload here (see below), reduced to the import
    // (decision 019). PLAIN_DYNAMIC_IMPORTS=false builds with Vite's own helper, to compare.
    ...(process.env.PLAIN_DYNAMIC_IMPORTS === 'false' ? [] : [plainDynamicImports()]),
    tailwindcss(),
    // Before React Router's plugin, whose step after the server build deletes it (decision 047).
    keepRenderBuild(),
    reactRouter(),
    compileHints({ appDirectory: fileURLToPath(new URL('./src/app', import.meta.url)) }),
  ],
  resolve: { alias: { '~': fileURLToPath(new URL('./src', import.meta.url)) } },
  build: {
    // Assets are served by our own server with immutable caching; no inlining keeps the CSP simple.
    assetsInlineLimit: 0,
    // No preload helper in every page's first load: the few lazy chunks (toast area, the guide
    // form's schema, the voice SDK) are fetched on use, where a short waterfall costs nothing.
    modulePreload: false,
  },
  environments: {
    client: {
      build: {
        rollupOptions: {
          output: {
            // The site's identity and the pages' meta helpers travel in one chunk (decision 022).
            // The root layout imports the first and every route's meta the second, so every page
            // loads both; apart, they were a second file in every page's first load and a second
            // file name in every route's entry of the route manifest.
            manualChunks: (id) => (SITE_CHUNK.some((file) => id.endsWith(file)) ? 'site' : undefined),
          },
        },
      },
    },
  },
  server: { port: 5173 },
});
