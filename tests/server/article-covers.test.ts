/**
 * An article's cover image (issue #25 item 1, decision 050), on PostgreSQL: an upload
 * is refused with a sentence when its bytes are not a JPEG, PNG or WebP (whatever it is called),
 * when it is over 5 MB, smaller than 1200 × 630, over 8000 pixels a side, taller than wide (its
 * EXIF orientation counted) or too wide, when its header passes but its image does not decode, or
 * when its alt text is missing; an accepted one is stored as AVIF, WebP and JPEG at 480, 960 and
 * 1600 pixels wide (never wider than uploaded), without its metadata, and served with its type,
 * nosniff and a year's cache at an address with its version (a draft's only to a console person);
 * once its article is published its page shows it in a <picture> (the largest paint: asked for
 * first, never lazily, its size given) and names it as its og:image and structured data's image;
 * changing, describing or removing it is audited and renders a published article's page again;
 * restoring a revision keeps it.
 */
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoverAnswer } from '../../src/features/publishing/article-covers-console-contract';
import type {
  ArticleDetail,
  ArticleRevisionSummary,
} from '../../src/features/publishing/articles-console-contract';
import { publicationVersion } from '../../src/server/kit/publication';
import { makeFormsApp, testDrivers, type FormsTestApp } from './forms-support';
import { asOwner, signInOwner, type OwnerCall } from './owner-session';

const drivers = await testDrivers('article_covers');

const ALT = 'A gold coin on a dark blue desk beside a ledger.';

/** A PNG's signature and header chunk: its type and size, and nothing a decoder could read. */
function pngHeader(width: number, height: number): Buffer {
  const b = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'ascii');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

/** A baseline JPEG's start, SOF0 with its size, and nothing after: a header that passes, an image that does not decode. */
function jpegHeader(width: number, height: number): Buffer {
  const sof = Buffer.alloc(11);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(9, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.alloc(16)]);
}

/** A picture of some colour and shape (as a photo compresses, not as noise), `width` × `height`. */
function picture(width: number, height: number) {
  const circles = Array.from(
    { length: 12 },
    (_, i) =>
      `<circle cx="${(i * 397) % width}" cy="${(i * 211) % height}" r="${60 + ((i * 53) % 240)}" fill="hsl(${(i * 37) % 360},60%,55%)" opacity="0.7"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f7931a"/><stop offset="1" stop-color="#1b2a4a"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${circles}</svg>`;
  return sharp(Buffer.from(svg));
}

describe.each(drivers)('article covers on $name', (driver) => {
  let t: FormsTestApp;
  let owner: OwnerCall;
  let helper: OwnerCall;
  let drop: () => Promise<void>;
  const db = () => t.app.services.database.db;
  /** A request with no session, as a reader's browser makes it. */
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    const made = await driver.env();
    drop = made.drop;
    t = await makeFormsApp({ ...made.env, HELPER_EMAILS: 'Grace <grace@sterling.test>' });
    owner = asOwner(t.app, await signInOwner(t.app));
    helper = asOwner(t.app, await signInOwner(t.app, 'grace@sterling.test'));
  });

  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  async function draft(label: string): Promise<ArticleDetail> {
    const res = await owner('POST', '/api/owner/articles', {
      body: {
        title: `Covers ${label}`,
        summary: `What ${label} shows.`,
        slug: `${label}-${randomUUID().slice(0, 8)}`,
        date: '2026-06-01',
        taxYear: '',
        body: `## ${label}\n\nSome words about ${label}.`,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ArticleDetail>();
  }

  const upload = (id: string, bytes: Buffer | null, alt = ALT) =>
    owner('POST', `/api/owner/articles/${id}/cover`, {
      body: { alt, ...(bytes ? { data: bytes.toString('base64') } : {}) },
    });

  const coverActions = (id: string) =>
    t.query<{ action: string }>(
      `select action from audit_log where target = '${id}' and action like 'article.cover%' order by id`,
    );

  it('refuses a file that is not a cover, saying why, before anything is stored', async () => {
    const article = await draft('refusals');
    const refusal = async (bytes: Buffer | null, alt = ALT) => {
      const res = await upload(article.id, bytes, alt);
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ error: string; fieldErrors?: Record<string, string> }>();
    };

    // The type by its magic bytes: a text file called cover.jpg, a GIF, a PDF.
    const notImage = 'That file is not a JPEG, PNG or WebP image. Please choose an image in one of those.';
    expect(await refusal(Buffer.from('Just some words, in a file renamed cover.jpg.'))).toMatchObject({
      error: notImage,
      fieldErrors: { data: notImage },
    });
    const gif = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#123456' } })
      .gif()
      .toBuffer();
    expect((await refusal(gif)).error).toBe(notImage);
    expect((await refusal(Buffer.from('%PDF-1.7\n% a document, not an image'))).error).toBe(notImage);

    // Its size: over 5 MB is refused by the checker's sentence; far over, by the route's body limit.
    const heavy = await refusal(Buffer.concat([pngHeader(1600, 900), Buffer.alloc(5 * 1024 * 1024)]));
    expect(heavy.error).toBe('The image can be at most 5 MB. Please choose a smaller one.');
    const huge = await upload(article.id, Buffer.alloc(7 * 1024 * 1024));
    expect(huge.statusCode).toBe(413);

    // Its dimensions, from its header.
    expect((await refusal(pngHeader(800, 600))).error).toBe(
      'The image is 800 × 600 pixels; it needs at least 1200 × 630 pixels to look sharp.',
    );
    expect((await refusal(pngHeader(1600, 600))).error).toContain('at least 1200 × 630 pixels');
    expect((await refusal(pngHeader(9000, 5000))).error).toBe(
      'The image is 9000 × 5000 pixels; it can be at most 8000 pixels a side. Please choose a smaller one.',
    );
    expect((await refusal(pngHeader(1200, 1600))).error).toBe(
      'The image is 1200 × 1600 pixels, taller than it is wide; it needs to be landscape or square. Please crop it.',
    );
    expect((await refusal(pngHeader(4000, 1000))).error).toBe(
      'The image is 4000 × 1000 pixels, too wide; it can be at most 3 times as wide as it is tall. Please crop it.',
    );
    // A phone's photo stored on its side: landscape in its header, portrait upright.
    const sideways = await picture(1600, 1200).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await refusal(sideways)).error).toBe(
      'The image is 1200 × 1600 pixels, taller than it is wide; it needs to be landscape or square. Please crop it.',
    );

    // A header that passes, an image that does not decode.
    expect((await refusal(jpegHeader(1600, 900))).error).toBe(
      'That image could not be read. Please choose another, or save it again as a JPEG or PNG.',
    );

    // The alt text: required with a cover.
    const good = await picture(1600, 900).jpeg().toBuffer();
    const noAlt = await refusal(good, '   ');
    expect(noAlt.fieldErrors?.alt).toBe(
      'Please describe the image for readers who cannot see it (its alt text): a cover needs one.',
    );
    expect((await refusal(good, 'x'.repeat(251))).fieldErrors?.alt).toBe(
      'The description can be at most 250 characters.',
    );
    // No file, and no cover to describe.
    expect(await refusal(null)).toMatchObject({
      error: 'Please choose an image for the cover.',
      fieldErrors: { data: 'Please choose an image for the cover.' },
    });
    const notBase64 = await owner('POST', `/api/owner/articles/${article.id}/cover`, {
      body: { alt: ALT, data: 'not base64!' },
    });
    expect(notBase64.statusCode).toBe(400);
    expect(notBase64.json().fieldErrors.data).toBe('The image did not arrive whole. Please choose it again.');

    expect((await upload(randomUUID(), good)).statusCode).toBe(404);
    const view = await owner('GET', `/api/owner/articles/${article.id}/cover`);
    expect(view.json<CoverAnswer>()).toEqual({ cover: null });
    expect(await coverActions(article.id)).toEqual([]);
  });

  it('stores AVIF, WebP and JPEG at each width without metadata, and serves them with a year’s cache', async () => {
    const article = await draft('files');
    const before = await publicationVersion(db());
    // A phone's photo: where it was taken travels in its EXIF, and must not reach the page.
    const fromPhone = await picture(2400, 1350)
      .jpeg({ quality: 90 })
      .withExif({ IFD0: { Copyright: 'Taken at 51.5007N 0.1246W', Make: 'PhoneMaker' } })
      .toBuffer();
    const res = await upload(article.id, fromPhone);
    expect(res.statusCode, res.body).toBe(200);
    const cover = res.json<CoverAnswer>().cover!;
    expect(cover).toMatchObject({ alt: ALT, width: 1600, height: 900 });
    expect(cover.preview).toBe(`/media/cover-${cover.version}-1600.webp`);
    // A draft's cover changes nothing on the site.
    expect(await publicationVersion(db())).toBe(before);

    const files = await t.query<{ width: number; format: string; size: number }>(
      `select width, format, length(bytes) as size from article_cover_files where version = ${cover.version} order by width, format`,
    );
    expect(files.map((f) => `${f.width}.${f.format}`)).toEqual([
      '480.avif',
      '480.jpeg',
      '480.webp',
      '960.avif',
      '960.jpeg',
      '960.webp',
      '1600.avif',
      '1600.jpeg',
      '1600.webp',
    ]);
    for (const [width, ext, format, type] of [
      [480, 'avif', 'heif', 'image/avif'],
      [960, 'webp', 'webp', 'image/webp'],
      [1600, 'jpg', 'jpeg', 'image/jpeg'],
    ] as const) {
      const path = `/media/cover-${cover.version}-${width}.${ext}`;
      // A draft's cover: not found by a reader nor a helper (who reads no draft), shown to the
      // owner (their browser alone caches it).
      expect((await get(path)).statusCode, path).toBe(404);
      expect((await helper('GET', path)).statusCode, path).toBe(404);
      const served = await owner('GET', path);
      expect(served.statusCode, path).toBe(200);
      expect(served.headers['content-type']).toBe(type);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      expect(served.rawPayload.includes('51.5007N')).toBe(false);
      expect(served.rawPayload.includes('PhoneMaker')).toBe(false);
      const read = await sharp(served.rawPayload).metadata();
      expect(read).toMatchObject({ format, width, height: Math.round((width * 9) / 16) });
      expect(read.exif).toBeUndefined();
    }
    // Small: the phone's AVIF is a few kilobytes, the widest JPEG well under what was uploaded.
    const size = (width: number, format: string) =>
      files.find((f) => f.width === width && f.format === format)!.size;
    expect(size(960, 'avif')).toBeLessThan(size(960, 'webp'));
    expect(size(1600, 'jpeg')).toBeLessThan(fromPhone.length);

    // Never wider than uploaded: a 1300-pixel cover's widest file is 1300 pixels wide.
    const narrow = await draft('narrow');
    const small = (await upload(narrow.id, await picture(1300, 700).png().toBuffer())).json<CoverAnswer>()
      .cover!;
    expect(small).toMatchObject({ width: 1300, height: 700 });
    const widths = await t.query<{ width: number }>(
      `select distinct width from article_cover_files where version = ${small.version} order by width`,
    );
    expect(widths.map((w) => w.width)).toEqual([480, 960, 1300]);
    // A WebP with transparency is taken too (flattened onto white for the JPEG).
    const webp = await sharp({
      create: { width: 1400, height: 800, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .webp()
      .toBuffer();
    expect((await upload((await draft('webp')).id, webp)).statusCode).toBe(200);

    // Addresses that name no file.
    for (const path of [
      `/media/cover-${cover.version}-1300.jpg`,
      `/media/cover-${cover.version}-960.png`,
      `/media/cover-${cover.version + 1000}-960.avif`,
      `/media/cover-0-960.avif`,
      `/media/cover-${cover.version}.avif`,
    ]) {
      expect((await owner('GET', path)).statusCode, path).toBe(404);
    }
    expect(await coverActions(article.id)).toEqual([{ action: 'article.cover' }]);
  });

  it('shows the cover on the published page, its og:image and structured data; a change renders it again, audited', async () => {
    const article = await draft('published');
    const first = (await upload(article.id, await picture(2000, 1125).jpeg().toBuffer())).json<CoverAnswer>()
      .cover!;
    const published = await owner('POST', `/api/owner/articles/${article.id}/publish`, {
      body: { version: article.version },
    });
    expect(published.statusCode, published.body).toBe(200);
    await t.app.services.publisher.republish();
    const pagePath = `/resources/articles/${article.slug}`;
    const v = first.version;
    const page = (await get(pagePath)).body;
    expect(page).toContain(
      `<picture><source type="image/avif" srcSet="/media/cover-${v}-480.avif 480w, /media/cover-${v}-960.avif 960w, /media/cover-${v}-1600.avif 1600w" sizes="(min-width: 48rem) 46rem, calc(100vw - 2rem)"/>`,
    );
    expect(page).toContain(`<source type="image/webp" srcSet="/media/cover-${v}-480.webp 480w,`);
    const img = /<img [^>]*src="\/media\/cover-[^>]*>/.exec(page)?.[0] ?? '';
    expect(img).toContain(`src="/media/cover-${v}-960.jpg"`);
    expect(img).toContain(
      `srcSet="/media/cover-${v}-480.jpg 480w, /media/cover-${v}-960.jpg 960w, /media/cover-${v}-1600.jpg 1600w"`,
    );
    expect(img).toContain('width="1600"');
    expect(img).toContain('height="900"');
    expect(img).toContain(`alt="${ALT}"`);
    // React writes the attributes in its own case (HTML reads them in any).
    expect(img).toContain('fetchPriority="high"');
    expect(img.toLowerCase()).not.toContain('loading=');
    // What a shared link shows, and search engines: the widest JPEG, at the site's address.
    const shared = `/media/cover-${v}-1600.jpg`;
    expect(page).toMatch(new RegExp(`<meta property="og:image" content="https?://[^"]+${shared}"`));
    expect(page).toContain('<meta property="og:image:width" content="1600"/>');
    expect(page).toContain('<meta property="og:image:height" content="900"/>');
    expect(page).toContain(`<meta property="og:image:alt" content="${ALT}"/>`);
    expect(page).toMatch(new RegExp(`"image":"https?://[^"]+${shared}"`));
    // Published: any reader gets it, and any cache may keep it for a year.
    const served = await get(shared);
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The lists show no cover: their data does not carry it.
    expect((await get('/resources/articles')).body).not.toContain('/media/cover-');

    // A new alt text alone: the page again, the same files.
    const before = await publicationVersion(db());
    const described = await upload(article.id, null, 'A gold coin on a ledger, seen from above.');
    expect(described.json<CoverAnswer>().cover).toMatchObject({
      version: v,
      alt: 'A gold coin on a ledger, seen from above.',
    });
    expect(await publicationVersion(db())).toBe(before + 1);
    // The same alt text again: nothing changes.
    await upload(article.id, null, 'A gold coin on a ledger, seen from above.');
    expect(await publicationVersion(db())).toBe(before + 1);
    await t.app.services.publisher.republish();
    expect((await get(pagePath)).body).toContain('alt="A gold coin on a ledger, seen from above."');

    // A new cover: a new version, the old one's files gone.
    const next = (await upload(article.id, await picture(1800, 1200).jpeg().toBuffer())).json<CoverAnswer>()
      .cover!;
    expect(next.version).toBeGreaterThan(v);
    expect(next).toMatchObject({ width: 1600, height: 1067, alt: ALT });
    expect(await publicationVersion(db())).toBe(before + 2);
    expect((await get(shared)).statusCode).toBe(404);
    await t.app.services.publisher.republish();
    const again = (await get(pagePath)).body;
    expect(again).toContain(`/media/cover-${next.version}-960.avif 960w`);
    expect(again).not.toContain(`/media/cover-${v}-`);

    // Restoring a revision keeps the cover: it is not part of the article's saves.
    const revisions = (await owner('GET', `/api/owner/articles/${article.id}/revisions`)).json<{
      items: ArticleRevisionSummary[];
    }>().items;
    const current = (await owner('GET', `/api/owner/articles/${article.id}`)).json<ArticleDetail>();
    const restored = await owner(
      'POST',
      `/api/owner/articles/${article.id}/revisions/${revisions.at(-1)!.id}/restore`,
      {
        body: { version: current.version },
      },
    );
    expect(restored.statusCode, restored.body).toBe(200);
    expect(
      (await owner('GET', `/api/owner/articles/${article.id}/cover`)).json<CoverAnswer>().cover?.version,
    ).toBe(next.version);

    // Removed: the page shows none, its files are not found, the site's own image is shared again.
    const counter = await publicationVersion(db());
    const removed = await owner('POST', `/api/owner/articles/${article.id}/cover/remove`);
    expect(removed.json<CoverAnswer>()).toEqual({ cover: null });
    expect(await publicationVersion(db())).toBe(counter + 1);
    expect((await get(`/media/cover-${next.version}-960.avif`)).statusCode).toBe(404);
    // Removing none changes nothing.
    await owner('POST', `/api/owner/articles/${article.id}/cover/remove`);
    expect(await publicationVersion(db())).toBe(counter + 1);
    await t.app.services.publisher.republish();
    const bare = (await get(pagePath)).body;
    expect(bare).not.toContain('<picture>');
    expect(bare).toMatch(/<meta property="og:image" content="https?:\/\/[^"]+\/og-image\.png"/);

    expect((await coverActions(article.id)).map((a) => a.action)).toEqual([
      'article.cover',
      'article.cover-alt',
      'article.cover',
      'article.cover-remove',
    ]);
    const [audit] = await t.query<{ detail: Record<string, number> }>(
      `select detail from audit_log where target = '${article.id}' and action = 'article.cover' order by id limit 1`,
    );
    expect(audit?.detail).toMatchObject({ width: 1600, height: 900 });
  });
});
