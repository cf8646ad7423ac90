/**
 * The server, bundled for production: `src/server/main.ts` and the site code it uses, in one
 * ES module at `<build>/server/main.mjs`, with the npm packages left as imports. Running it needs
 * no TypeScript loader, which keeps some 75 MB of transpiler out of the server's memory.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

export async function buildServer(buildDir) {
  const outfile = join(buildDir, 'server', 'main.mjs');
  await build({
    entryPoints: ['src/server/main.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  return outfile;
}
