#!/usr/bin/env node
/**
 * The production build: the React Router build (every public path prerendered), then the
 * files the server needs from it, made once here rather than at every start:
 *  - build assets generated from content (sitemap, robots, the Atom feed, extra files from scripts/assets/),
 *  - the feed's link in every page's head,
 *  - the sha256 of every inline script of every HTML file (the CSP allows exactly those),
 *  - brotli and gzip variants of every compressible file,
 *  - the server bundle (`server/main.mjs`, scripts/build-server.mjs),
 *  - a stamp of the settings baked into the browser code, so `npm start` knows when to rebuild.
 */
import { spawnSync } from 'node:child_process';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { buildServer } from './build-server.mjs';
import { compressBody, COMPRESSIBLE, finishPage, MIN_COMPRESSED } from './page-finish.mjs';
import { buildSettings, BUILD_DIR, CLIENT_DIR, STAMP_FILE } from './build-settings.mjs';

const settings = buildSettings();
const env = { ...process.env, VITE_PUBLIC_URL: settings.publicUrl };

function run(cmd, args) {
  const result = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`build: ${cmd} ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

run(process.execPath, ['node_modules/@react-router/dev/bin.js', 'build']);
run(process.execPath, ['--import', 'tsx', 'scripts/build-assets.ts', CLIENT_DIR]);
await buildServer(BUILD_DIR);

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

const scriptHashes = {};
let compressed = 0;
for await (const file of walk(CLIENT_DIR)) {
  if (/\.(br|gz)$/.test(file)) continue;
  const rel = '/' + relative(CLIENT_DIR, file).split(sep).join('/');
  let body = await readFile(file);
  if (file.endsWith('.html')) {
    const page = finishPage(body.toString('utf8'));
    body = Buffer.from(page.html, 'utf8');
    await writeFile(file, body);
    scriptHashes[rel] = page.scriptHashes;
  }
  if (COMPRESSIBLE.test(file) && (await stat(file)).size > MIN_COMPRESSED) {
    const copies = compressBody(body);
    await writeFile(`${file}.br`, copies.br);
    await writeFile(`${file}.gz`, copies.gz);
    compressed += 1;
  }
}

await writeFile(join(BUILD_DIR, 'csp-hashes.json'), JSON.stringify(scriptHashes, null, 2));
await writeFile(STAMP_FILE, JSON.stringify(settings, null, 2));
console.log(
  `build: ${Object.keys(scriptHashes).length} HTML files hashed, ${compressed} files compressed (br, gz)`,
);
