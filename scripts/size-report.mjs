#!/usr/bin/env node
/**
 * Sizes of the production build (run `npm run build` first): every route's HTML, and the
 * JavaScript and CSS the home page loads first, in gzip bytes, against the budget. The first
 * load is what build/client/index.html links or its bootstrap script loads: module scripts,
 * modulepreloads and stylesheets.
 * Exits 1 when the home page is over budget.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const CLIENT_DIR = join(process.env.BUILD_DIR ?? 'build', 'client');
const BUDGET = { js: 130 * 1024, css: 20 * 1024 };

if (!existsSync(join(CLIENT_DIR, 'index.html'))) {
  console.error('size-report: no build found; run `npm run build` first.');
  process.exit(1);
}

// Every prerendered page is a folder with an index.html (the home page is the root's).
const paths = [
  '/',
  ...readdirSync(CLIENT_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(CLIENT_DIR, entry.name, 'index.html')))
    .map((entry) => `/${entry.name}`)
    .sort(),
];

const gzipSize = (buf) => gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const htmlFile = (path) => join(CLIENT_DIR, path === '/' ? 'index.html' : `${path.slice(1)}/index.html`);

console.log('Route HTML (raw / gzip)');
for (const path of paths) {
  const body = readFileSync(htmlFile(path));
  console.log(
    `  ${path.padEnd(14)} ${String(body.length).padStart(7)} B  ${String(gzipSize(body)).padStart(6)} B gzip`,
  );
}

const home = readFileSync(join(CLIENT_DIR, 'index.html'), 'utf8');
const attr = (tag, name) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1];
const js = new Set();
const css = new Set();
for (const [tag] of home.matchAll(/<(?:link|script)\b[^>]*>/g)) {
  const rel = attr(tag, 'rel');
  if (tag.startsWith('<link') && rel === 'modulepreload') js.add(attr(tag, 'href'));
  if (tag.startsWith('<link') && rel === 'stylesheet') css.add(attr(tag, 'href'));
  if (tag.startsWith('<script') && attr(tag, 'src')) js.add(attr(tag, 'src'));
}
// The bootstrap inline script preloads and imports modules by URL (decision 008); count each it
// names, and every module those import in turn.
for (const [, script] of home.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)) {
  for (const [, url] of script.matchAll(/["'](\/assets\/[^"']+\.js)["']/g)) js.add(url);
}
for (const url of js) {
  if (!url?.startsWith('/assets/')) continue;
  const source = readFileSync(join(CLIENT_DIR, url), 'utf8');
  // Static imports only (`import ... from "./x.js"`, `import "./x.js"`): a dynamic import() loads on use.
  for (const [, dep] of source.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([^"']+\.js)["']/g)) {
    js.add(`/assets/${dep}`);
  }
}

function total(urls) {
  let sum = 0;
  const rows = [];
  for (const url of urls) {
    if (!url || !url.startsWith('/')) continue;
    const file = join(CLIENT_DIR, url);
    const size = gzipSize(readFileSync(file));
    rows.push([url, size]);
    sum += size;
  }
  rows.sort((a, b) => b[1] - a[1]);
  return { sum, rows };
}

const jsTotal = total(js);
const cssTotal = total(css);
console.log('\nHome page first load (gzip)');
for (const [url, size] of jsTotal.rows) console.log(`  ${String(size).padStart(7)} B  ${url}`);
for (const [url, size] of cssTotal.rows) console.log(`  ${String(size).padStart(7)} B  ${url}`);
const jsOk = jsTotal.sum <= BUDGET.js;
const cssOk = cssTotal.sum <= BUDGET.css;
console.log(
  `\n  JavaScript: ${jsTotal.sum} B (${kb(jsTotal.sum)}) of ${kb(BUDGET.js)} budget ${jsOk ? 'OK' : 'OVER BUDGET'}`,
);
console.log(
  `  CSS:        ${cssTotal.sum} B (${kb(cssTotal.sum)}) of ${kb(BUDGET.css)} budget ${cssOk ? 'OK' : 'OVER BUDGET'}`,
);
if (!jsOk || !cssOk) process.exit(1);
