/**
 * The server shell over the production build, read over real sockets in both of the server's
 * modes (with the static fast path and with Node alone): the same answers either way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArticleFiles } from '../../scripts/articles';
import { ARTICLES_PATH, articlePath } from '../../src/content/articles';
import { AI_PATHS, PUBLIC_PATHS } from '../../src/content/routes';
import { listenTestApp, SERVER_MODES } from './over-http';
import { expectDocumentHeaders, expectSubresourceHeaders } from './security-expectations';

type TestApp = Awaited<ReturnType<typeof listenTestApp>>;
const isAiPage = (path: string) => (AI_PATHS as readonly string[]).includes(path);

it('keeps the Markdown and front-matter libraries out of every browser file of the build', () => {
  const assets = join(resolve(process.env.BUILD_DIR || 'build'), 'client/assets');
  const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const file of scripts) {
    const source = readFileSync(join(assets, file), 'utf8');
    // Error messages of marked and of js-yaml (gray-matter's parser), which any bundle of them holds.
    expect(source, file).not.toContain('marked(): input parameter');
    expect(source, file).not.toContain('end of the stream or a document separator is expected');
  }
});

it("loads none of the owner console's code on a public page", () => {
  const client = join(resolve(process.env.BUILD_DIR || 'build'), 'client');
  /** Every script a page loads before any dynamic import: those it names, and their static imports. */
  const firstLoad = (html: string) => {
    const seen = new Set<string>();
    const queue = [...html.matchAll(/\/assets\/([\w.-]+\.js)/g)].map((m) => m[1]!);
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const source = readFileSync(join(client, 'assets', file), 'utf8');
      for (const m of source.matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) queue.push(m[1]!);
    }
    return [...seen];
  };
  for (const path of PUBLIC_PATHS) {
    const html = readFileSync(
      join(client, path === '/' ? 'index.html' : `${path.slice(1)}/index.html`),
      'utf8',
    );
    const files = firstLoad(html);
    expect(files.length, path).toBeGreaterThan(2);
    for (const file of files) {
      expect(file, path).not.toMatch(/^owner-/);
      // Words only the console's screens hold.
      expect(readFileSync(join(client, 'assets', file), 'utf8'), `${path} ${file}`).not.toContain(
        'Sign out everywhere',
      );
    }
    expect(html, path).not.toMatch(/owner-[\w-]+\.css/);
  }
});

describe.each(SERVER_MODES)('the server shell over the production build, $mode', ({ env }) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await listenTestApp(env);
  });
  afterAll(async () => {
    await t.app.close();
  });

  it.each(PUBLIC_PATHS)('answers %s with its prerendered HTML and the security headers', async (path) => {
    const res = await t.call({ method: 'GET', url: path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toMatch(/<h1[\s>]/);
    expectDocumentHeaders(res.headers, path, { voice: isAiPage(path) });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('allows exactly the inline scripts of each page by hash', async () => {
    const res = await t.call({ method: 'GET', url: '/about' });
    const csp = String(res.headers['content-security-policy']);
    // The public pages load images from the site alone (the console may show others': decision 046).
    expect(csp).toMatch(/(^|;\s*)img-src 'self' data:(;|$)/);
    const inline = [...res.body.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].filter(
      (m) => !m[0].includes('application/ld+json'),
    );
    expect(inline.length).toBeGreaterThan(0);
    const { createHash } = await import('node:crypto');
    for (const m of inline) {
      expect(csp).toContain(
        `'sha256-${createHash('sha256')
          .update(m[1] ?? '')
          .digest('base64')}'`,
      );
    }
  });

  it('keeps the document headers on every file a browser could render as a document', async () => {
    for (const url of ['/favicon.svg', '/guides/wealth-building-guide.pdf', '/sitemap.xml', '/robots.txt']) {
      const res = await t.call({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expectDocumentHeaders(res.headers);
    }
    const css = readdirSync(join(t.config.buildDir, 'client/assets')).find((f) => f.endsWith('.css'));
    const style = await t.call({ method: 'GET', url: `/assets/${css}` });
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8');
    expectSubresourceHeaders(style.headers);
    const image = await t.call({ method: 'GET', url: '/og-image.png' });
    expectSubresourceHeaders(image.headers);
  });

  it('serves hashed assets as immutable, compressed when accepted', async () => {
    const asset = readdirSync(join(t.config.buildDir, 'client/assets')).find((f) => f.endsWith('.js'));
    const url = `/assets/${asset}`;
    const plain = await t.call({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expectSubresourceHeaders(plain.headers);
    const br = await t.call({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    const gz = await t.call({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const refused = await t.call({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(refused.headers['content-encoding']).toBe('gzip');
  });

  it('answers a matching If-None-Match with 304', async () => {
    const first = await t.call({ method: 'GET', url: '/' });
    const again = await t.call({
      method: 'GET',
      url: '/',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers unknown paths with the 404 page, status 404 and the headers', async () => {
    for (const url of ['/no-such-page', '/about/deeper', '/404', '/__spa-fallback.html']) {
      const res = await t.call({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('Oops! Page not found');
      expectDocumentHeaders(res.headers);
    }
  });

  it('answers unknown API paths with JSON 404', async () => {
    const res = await t.call({ method: 'GET', url: '/api/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found.' });
    expectDocumentHeaders(res.headers);
  });

  it('answers /healthz with 200', async () => {
    const res = await t.call({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expectDocumentHeaders(res.headers);
  });

  it('serves HEAD without a body', async () => {
    const res = await t.call({ method: 'HEAD', url: '/about' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('');
  });

  it('serves sitemap.xml with every public path, and robots.txt pointing to it', async () => {
    const sitemap = await t.call({ method: 'GET', url: '/sitemap.xml' });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    for (const path of PUBLIC_PATHS)
      expect(sitemap.body).toContain(`<loc>${t.config.publicUrl}${path}</loc>`);
    // Never the console, nor the pages behind e-mail links.
    expect(sitemap.body).not.toContain('/owner');
    expect(sitemap.body).not.toContain('/masterclass/cancel');
    expect(sitemap.body).not.toContain('/booking/');
    const robots = await t.call({ method: 'GET', url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.body).toContain(`Sitemap: ${t.config.publicUrl}/sitemap.xml`);
  });

  it('answers the list of articles and every article with its page and its data, and /feed.xml as Atom', async () => {
    for (const path of [ARTICLES_PATH, ...readArticleFiles().map((a) => articlePath(a.slug))]) {
      const res = await t.call({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type'], path).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control'], path).toBe('no-cache');
      expectDocumentHeaders(res.headers, path);
      expect(res.body, path).toContain(`<link rel="canonical" href="${t.config.publicUrl}${path}"/>`);
      expect(res.body, path).toMatch(
        /<head>[\s\S]*<link rel="alternate" type="application\/atom\+xml"[^>]*href="\/feed\.xml">[\s\S]*<\/head>/,
      );
      // What the app fetches when a link to the page is followed.
      const data = await t.call({ method: 'GET', url: `${path}.data` });
      expect(data.statusCode, `${path}.data`).toBe(200);
      expect(data.headers['content-type'], `${path}.data`).toBe('text/x-script');
      expect(data.headers['cache-control'], `${path}.data`).toBe('no-cache');
      expectSubresourceHeaders(data.headers, `${path}.data`);
    }
    const feed = await t.call({ method: 'GET', url: '/feed.xml' });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(feed.headers['cache-control']).toBe('public, max-age=3600, must-revalidate');
    expect(feed.body).toMatch(
      /^<\?xml version="1\.0" encoding="utf-8"\?>\s*<feed xmlns="http:\/\/www\.w3\.org\/2005\/Atom">/,
    );
    expectDocumentHeaders(feed.headers, '/feed.xml');
  });

  it('serves the Open Graph image, the avatar and the favicon', async () => {
    for (const [url, type] of [
      ['/og-image.png', 'image/png'],
      ['/images/elliot.svg', 'image/svg+xml'],
      ['/favicon.svg', 'image/svg+xml'],
    ] as const) {
      const res = await t.call({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe(type);
    }
    const png = await t.call({ method: 'GET', url: '/og-image.png' });
    // PNG signature, then the IHDR width and height: 1200 x 630.
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(png.rawPayload.readUInt32BE(16)).toBe(1200);
    expect(png.rawPayload.readUInt32BE(20)).toBe(630);
  });

  it('gives each page its own title and canonical URL in the prerendered HTML', async () => {
    const titles = new Set<string>();
    for (const path of PUBLIC_PATHS) {
      const res = await t.call({ method: 'GET', url: path });
      const title = /<title>([^<]+)<\/title>/.exec(res.body)?.[1];
      expect(title, path).toBeTruthy();
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(res.body)?.[1];
      expect(canonical, path).toBe(`${t.config.publicUrl}${path === '/ai-coaching' ? '/ai' : path}`);
      if (path !== '/ai-coaching') {
        expect(titles.has(title!), `${path} repeats ${title}`).toBe(false);
        titles.add(title!);
      }
    }
  });
});
