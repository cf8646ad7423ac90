#!/usr/bin/env node
/**
 * Draws public/og-image.png (1200x630), the picture shown when a page is shared, from the
 * brand and tagline in content. Run it again after changing either; the PNG is committed.
 */
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/e2e/support/chromium.ts';

const { site } = await import('../src/content/site.ts');

const html = `<!doctype html><html><head><style>
  * { margin: 0; box-sizing: border-box; }
  body { width: 1200px; height: 630px; font-family: 'DejaVu Sans', Arial, sans-serif; color: #fff;
    background: radial-gradient(700px 420px at 100% 0%, rgba(247,147,26,.35), transparent 70%), #0b1f3a;
    padding: 80px 90px; display: flex; flex-direction: column; justify-content: space-between; }
  .brand { display: flex; align-items: center; gap: 22px; font-size: 44px; font-weight: 700; }
  h1 { font-size: 68px; line-height: 1.1; font-weight: 700; max-width: 900px; letter-spacing: -1px; }
  h1 span { color: #f7931a; }
  p { font-size: 30px; color: #d3dbe6; }
</style></head><body>
  <div class="brand"><svg width="72" height="72" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#b9470b"/><circle cx="16" cy="16" r="11.5" fill="none" stroke="#fed7aa" stroke-width="1.2" opacity=".7"/><path d="M20.6 11.4C20.1 9.4 18.5 8 16.3 8c-2.4 0-3.9 1.7-3.9 4.1v7c0 2.1-.6 3.7-1.9 4.9h11.3M10 16.6h7.6" fill="none" stroke="#fff" stroke-width="2.2" stroke-linecap="round"/></svg>${site.brand}</div>
  <h1>Turn a high income into <span>lasting wealth</span></h1>
  <p>${site.tagline}</p>
</body></html>`;

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
await page.setContent(html);
await page.screenshot({ path: 'public/og-image.png' });
await browser.close();
console.log('wrote public/og-image.png');
