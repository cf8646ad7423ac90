#!/usr/bin/env node
/**
 * Draws the console's app icons (public/owner/icon-192.png, icon-512.png, and a maskable 512 with
 * room around the mark), from the site's favicon, for the console's web app manifest. Run it
 * again after changing the favicon; the PNGs are committed.
 */
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/support/chromium.ts';

const mark = readFileSync('public/favicon.svg', 'utf8');
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
for (const [file, size, inset] of [
  ['icon-192.png', 192, 0],
  ['icon-512.png', 512, 0],
  ['icon-maskable-512.png', 512, 0.2],
]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const pad = Math.round(size * inset);
  await page.setContent(
    `<!doctype html><html><body style="margin:0;width:${size}px;height:${size}px;background:${inset ? '#0b1f3a' : 'transparent'};display:flex">` +
      `<div style="margin:${pad}px;width:${size - 2 * pad}px;height:${size - 2 * pad}px">${mark.replace('<svg ', '<svg width="100%" height="100%" ')}</div></body></html>`,
  );
  await page.screenshot({ path: `public/owner/${file}`, omitBackground: !inset });
  await page.close();
}
await browser.close();
