/**
 * What every page of the site goes through once rendered, by the build (scripts/build.mjs) and by
 * the server when it renders the published pages at publish time (decision 047): the hydration
 * bootstrap (decision 008), the feed's link in the head, the hashes of its inline scripts for the
 * CSP, and the brotli and gzip copies of a compressible file.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { deferHydration } from './html-bootstrap.mjs';

/**
 * Every page's head links the articles' Atom feed. Added to the rendered HTML rather than by the
 * root route's links: that would add its bytes to every page's JavaScript. React leaves a tag it
 * did not render in the head alone when it hydrates.
 */
export const FEED_LINK =
  '<link rel="alternate" type="application/atom+xml" title="Sterling Sats articles" href="/feed.xml">';

function linkFeed(html) {
  if (html.includes(FEED_LINK)) return html;
  return html.replace('</head>', `${FEED_LINK}</head>`);
}

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g;

/** A rendered page made ready to serve, and the CSP hashes of its inline scripts. */
export function finishPage(rendered) {
  const html = linkFeed(deferHydration(rendered));
  const hashes = new Set();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    // JSON-LD is data, not script: the CSP does not govern it.
    if (/type="application\/ld\+json"/.test(match[0])) continue;
    hashes.add(`'sha256-${createHash('sha256').update(match[1] ?? '').digest('base64')}'`);
  }
  return { html, scriptHashes: [...hashes] };
}

/** Files worth compressing, by name, when larger than `MIN_COMPRESSED` bytes. */
export const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|xml|txt|ics|map|webmanifest|data)$/;
export const MIN_COMPRESSED = 256;

/** The brotli (quality 11) and gzip (level 9) copies of a body. */
export function compressBody(body) {
  return {
    br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gz: gzipSync(body, { level: 9 }),
  };
}
