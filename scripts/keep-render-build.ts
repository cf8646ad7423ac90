/**
 * React Router's build renders every prerendered page with a server build of the app, then
 * deletes that build (`ssr: false`). The server renders the owner's published pages with the
 * same build at publish time (decision 047), so this plugin copies it to `<build>/render` once it
 * is written, before React Router's own step removes it. It runs first and alone (`order: 'pre'`,
 * `sequential`), so the copy is whole before anything else touches the directory.
 */
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';

export function keepRenderBuild(): Plugin {
  return {
    name: 'keep-render-build',
    apply: 'build',
    applyToEnvironment: (environment) => environment.name === 'ssr',
    writeBundle: {
      order: 'pre',
      sequential: true,
      handler(options) {
        const serverDir = options.dir;
        if (!serverDir || !existsSync(join(serverDir, 'index.js'))) {
          this.error(`keep-render-build: no server build in ${serverDir ?? '(no directory)'}`);
        }
        const target = join(serverDir, '..', 'render');
        rmSync(target, { recursive: true, force: true });
        cpSync(serverDir, target, { recursive: true });
      },
    },
  };
}
