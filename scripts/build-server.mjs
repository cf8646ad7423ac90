/**
 * The server, bundled for production: `src/server/root/main.ts` and the site code it uses, in one
 * ES module at `<build>/server/main.mjs`, with the npm packages left as imports. Running it needs
 * no TypeScript loader, which keeps some 75 MB of transpiler out of the server's memory. The
 * published pages' render process (`src/server/root/site/render-worker.ts`) is a second entry,
 * `render-worker.mjs`, beside it, the image process (`src/server/root/image-worker.ts`) a
 * third, `image-worker.mjs`, and the calendar's (`src/server/root/calendar-worker.ts`) a fourth.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

export async function buildServer(buildDir) {
  const outdir = join(buildDir, 'server');
  await build({
    // Side by side: the bundle finds the worker next to itself (`import.meta.url`).
    entryPoints: {
      main: 'src/server/root/main.ts',
      // The processes that render the published pages (decisions 047, 049) and make the owner's
      // uploaded images (decision 050), found beside the bundle.
      'render-worker': 'src/server/root/site/render-worker.ts',
      'image-worker': 'src/server/root/image-worker.ts',
      // The owner's calendar, read with limits (decision 037, addendum).
      'calendar-worker': 'src/server/root/calendar-worker.ts',
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return join(outdir, 'main.mjs');
}
