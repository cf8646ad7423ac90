/**
 * The business's own details (issue #25 item 4), on PostgreSQL: until the owner sets
 * them the site shows no stand-in contact details and the overview warns; a save is audited,
 * raises the publication counter and renders every page again (the footer, Contact, About, the
 * home page's structured data and its testimonials, only those marked real with permission); bad
 * input is refused with the field's sentence; the founder's photo is checked by its bytes (type,
 * size, dimensions) and served with its type and a long cache; the e-mails' footers name the
 * business's address.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusinessAnswer } from '../../src/features/business/business-console-contract';
import { renderEmail } from '../../src/server/kit/mail/layout';
import { publicationVersion } from '../../src/server/kit/publication';
import { makeFormsApp, testDrivers, type FormsTestApp } from './forms-support';
import { asOwner, signInOwner, type OwnerCall } from './owner-session';

const drivers = await testDrivers('business_details');

const DETAILS = {
  name: 'Sterling Sats Ltd',
  email: 'hello@sterling-sats.test',
  phone: '020 7946 0999',
  address: ['12 Test Street', 'London', 'EC1A 9ZZ'],
  companyNumber: '12345678',
  founderName: 'Sam Founder',
  founderBio: 'Sam taught adviser teams for years.\n\nNow Sam runs Sterling Sats.',
  testimonials: [
    {
      quote: 'Clear and careful words about Bitcoin.',
      author: 'Real Client',
      role: 'Solicitor',
      city: 'Leeds',
      givenOn: '2026-05-01',
      real: true,
      permissionOn: '2026-05-03',
    },
    {
      quote: 'Words with no permission yet.',
      author: 'Unasked Client',
      role: 'Planner',
      city: 'York',
      givenOn: '2026-05-02',
      real: true,
      permissionOn: '',
    },
  ],
};

/** A PNG's signature and header chunk: enough for its type and size (the site decodes nothing). */
function png(width: number, height: number): Buffer {
  const b = Buffer.alloc(64);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'ascii');
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

/** A baseline JPEG's start: SOI, an APP0 segment, then SOF0 with its height and width. */
function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x06, 0x4a, 0x46, 0x49, 0x46]);
  const sof = Buffer.alloc(11);
  sof.writeUInt16BE(0xffc0, 0);
  sof.writeUInt16BE(9, 2);
  sof[4] = 8;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(16)]);
}

describe.each(drivers)('business details on $name', (driver) => {
  let t: FormsTestApp;
  let owner: OwnerCall;
  let drop: () => Promise<void>;
  const db = () => t.app.services.database.db;
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    const made = await driver.env();
    drop = made.drop;
    t = await makeFormsApp(made.env);
    owner = asOwner(t.app, await signInOwner(t.app));
  });

  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('shows no stand-in contact details and warns in the overview until they are set', async () => {
    const view = await owner('GET', '/api/owner/business');
    expect(view.statusCode).toBe(200);
    expect(view.json<BusinessAnswer>().details).toBeNull();
    const overview = await owner('GET', '/api/owner/overview');
    const warnings = overview.json<{ setupWarnings: string[] }>().setupWarnings.join(' ');
    expect(warnings).toContain('The business’s own details are not set');
    // The voice simulator's keys are baked into the build: without them its button would only fail.
    const stamp = JSON.parse(
      readFileSync(join(process.env.BUILD_DIR ?? 'build', 'build-stamp.json'), 'utf8'),
    ) as {
      vapiPublicKey?: string;
      vapiAssistantId?: string;
    };
    const keyed = !!stamp.vapiPublicKey && !!stamp.vapiAssistantId;
    expect(warnings.includes('The voice simulator has no keys')).toBe(!keyed);
    for (const path of ['/', '/contact', '/privacy', '/terms', '/about']) {
      const page = await get(path);
      expect(page.body).not.toContain('example.com');
      expect(page.body).not.toContain('Example Court');
      expect(page.body).not.toContain('7946 0321');
    }
    expect((await get('/contact')).body).toContain('Please use the form to reach us');
    // No testimonials until real ones are recorded with permission.
    expect((await get('/')).body).not.toContain('In their words');
  });

  it('refuses what the owner must correct, with the field’s sentence', async () => {
    const bad = await owner('POST', '/api/owner/business', {
      body: {
        ...DETAILS,
        basedOn: null,
        email: 'not an address',
        phone: 'call me',
        address: ['One line'],
        companyNumber: '123',
        testimonials: [{ ...DETAILS.testimonials[0], givenOn: '2026-02-30' }],
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toMatchObject({
      email: 'Please enter a valid email address.',
      phone: expect.stringContaining('Please give a phone number'),
      address: expect.stringContaining('at least the street and the postcode'),
      companyNumber: expect.stringContaining('eight characters'),
      testimonials: 'Please give the date as YYYY-MM-DD, as 2025-06-08.',
    });
    const early = await owner('POST', '/api/owner/business', {
      body: { ...DETAILS, basedOn: null, testimonials: [{ ...DETAILS.testimonials[0], permissionOn: '2026-04-01' }] },
    });
    expect(early.statusCode).toBe(400);
    expect(early.json().fieldErrors.testimonials).toBe(
      'The permission cannot be dated before the words were given.',
    );
    expect((await owner('GET', '/api/owner/business')).json<BusinessAnswer>().details).toBeNull();
  });

  it('saves them audited, and renders every page again with them', async () => {
    const before = await publicationVersion(db());
    const saved = await owner('POST', '/api/owner/business', { body: { ...DETAILS, basedOn: null } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<BusinessAnswer>().details).toMatchObject({
      email: DETAILS.email,
      address: DETAILS.address,
    });
    expect(await publicationVersion(db())).toBe(before + 1);
    const audits = await t.query<{ action: string; detail: Record<string, number> }>(
      `select action, detail from audit_log where action like 'business.%' order by id`,
    );
    expect(audits).toEqual([{ action: 'business.set', detail: { testimonials: 2, shown: 1 } }]);

    await t.app.services.publisher.republish();
    const contact = (await get('/contact')).body;
    expect(contact).toContain(`mailto:${DETAILS.email}`);
    expect(contact).toContain('href="tel:02079460999"');
    expect(contact).toContain('12 Test Street');
    expect(contact).not.toContain('Please use the form to reach us');
    // The footer of every page, the 404 and an e-mail link's page included.
    for (const path of ['/', '/services', '/privacy', '/newsletter/confirm', '/resources/articles']) {
      const page = await get(path);
      expect(page.statusCode, path).toBe(200);
      expect(page.body, path).toContain(`mailto:${DETAILS.email}`);
    }
    const missing = await get('/no-such-page');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain(`mailto:${DETAILS.email}`);
    // A link followed inside the app reads the same publication's data.
    expect((await get('/contact.data')).body).toContain(DETAILS.email);
    // The founder on About; on the home page the structured data and only the permitted testimonial.
    const about = (await get('/about')).body;
    expect(about).toContain('Sam Founder');
    expect(about).toContain('Now Sam runs Sterling Sats.');
    const home = (await get('/')).body;
    expect(home).toContain('"email":"hello@sterling-sats.test"');
    expect(home).toContain('Clear and careful words about Bitcoin.');
    expect(home).not.toContain('Words with no permission yet.');

    const overview = await owner('GET', '/api/owner/overview');
    expect(overview.json<{ setupWarnings: string[] }>().setupWarnings.join(' ')).not.toContain(
      'The business’s own details are not set',
    );

    const firstVersion = saved.json<BusinessAnswer>().updatedAt;
    const again = await owner('POST', '/api/owner/business', {
      body: { ...DETAILS, email: 'office@sterling-sats.test', basedOn: firstVersion },
    });
    expect(again.statusCode).toBe(200);
    // A second tab still holding the first version, or one that never saw them: refused, nothing changed.
    const counter = await publicationVersion(db());
    for (const basedOn of [firstVersion, null]) {
      const stale = await owner('POST', '/api/owner/business', {
        body: { ...DETAILS, email: 'stale@sterling-sats.test', basedOn },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error).toMatch(/^These details were changed in another tab or window since you opened them/);
    }
    const unnamed = await owner('POST', '/api/owner/business', { body: { ...DETAILS, email: 'stale@sterling-sats.test' } });
    expect(unnamed.statusCode).toBe(400);
    expect((await owner('GET', '/api/owner/business')).json<BusinessAnswer>().details?.email).toBe(
      'office@sterling-sats.test',
    );
    expect(await publicationVersion(db())).toBe(counter);
    await t.app.services.publisher.republish();
    expect((await get('/contact')).body).toContain('mailto:office@sterling-sats.test');
    // The home page's data (followed inside the app) is the publication's too, by React Router's name.
    expect((await get('/_.data')).body).toContain('office@sterling-sats.test');
    const last = await t.query<{ action: string; actor: string }>(
      `select action, actor from audit_log where action like 'business.%' order by id desc limit 1`,
    );
    expect(last[0]?.action).toBe('business.save');
  });

  it('checks the founder’s photo by its bytes and serves it with its type and a long cache', async () => {
    const send = (bytes: Buffer) =>
      owner('POST', '/api/owner/business/photo', { body: { data: bytes.toString('base64') } });

    const text = await send(Buffer.from('Just some words, not a photo at all.'));
    expect(text.statusCode).toBe(400);
    expect(text.json().error).toBe(
      'That file is not a JPEG, PNG or WebP image. Please choose a photo in one of those.',
    );
    const huge = await send(png(5000, 300));
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error).toContain('at most 4000 pixels a side');
    const tiny = await send(png(50, 50));
    expect(tiny.statusCode).toBe(400);
    expect(tiny.json().error).toContain('at least 200 pixels a side');
    const heavy = await send(Buffer.concat([png(400, 400), Buffer.alloc(2 * 1024 * 1024)]));
    expect(heavy.statusCode).toBe(400);
    expect(heavy.json().error).toContain('at most 2 MB');
    const notBase64 = await owner('POST', '/api/owner/business/photo', { body: { data: 'not base64!' } });
    expect(notBase64.statusCode).toBe(400);

    // A header that passes but an image that does not decode.
    const broken = await send(jpeg(640, 480));
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error).toBe(
      'That photo could not be read. Please choose another, or save it again as a JPEG or PNG.',
    );

    // A phone's photo: where it was taken travels in its EXIF, and must not reach the page.
    const sharp = (await import('sharp')).default;
    const fromPhone = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#8a6d3b' } })
      .jpeg()
      .withExif({ IFD0: { Copyright: 'Taken at 51.5007N 0.1246W', Make: 'PhoneMaker' } })
      .toBuffer();
    expect(fromPhone.includes('51.5007N')).toBe(true);
    const ok = await send(fromPhone);
    expect(ok.statusCode, ok.body).toBe(200);
    const photo = ok.json<BusinessAnswer>().photo!;
    expect(photo).toMatchObject({ type: 'image/jpeg', width: 640, height: 480 });
    expect(photo.path).toMatch(/^\/media\/founder-\d+\.jpg$/);
    const served = await get(photo.path);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.rawPayload.includes('51.5007N')).toBe(false);
    expect(served.rawPayload.includes('PhoneMaker')).toBe(false);
    const read = await sharp(served.rawPayload).metadata();
    expect(read).toMatchObject({ format: 'jpeg', width: 640, height: 480 });
    expect(read.exif).toBeUndefined();

    await t.app.services.publisher.republish();
    expect((await get('/about')).body).toContain(`src="${photo.path}"`);
    // An article's byline: the founder as set, with the photo.
    const article = (await get('/resources/articles/sizing-a-bitcoin-allocation')).body;
    expect(article).toContain(`src="${photo.path}"`);
    expect(article).toContain('Sam Founder');

    // A camera's photo is written no larger than the pages show it (480 on its shorter side, its
    // shape kept): a 3000 x 2000 photo is not sent to every reader of an article.
    const camera = await sharp({
      create: { width: 3000, height: 2000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 4 } },
    })
      .jpeg({ quality: 90 })
      .toBuffer();
    const large = await send(camera);
    expect(large.statusCode, large.body).toBe(200);
    const largePhoto = large.json<BusinessAnswer>().photo!;
    expect(largePhoto).toMatchObject({ type: 'image/jpeg', width: 720, height: 480 });
    const largeServed = await get(largePhoto.path);
    expect(await sharp(largeServed.rawPayload).metadata()).toMatchObject({ width: 720, height: 480 });
    expect(largeServed.rawPayload.length).toBeLessThan(camera.length / 5);

    const replaced = await send(
      await sharp({ create: { width: 300, height: 300, channels: 3, background: '#ffffff' } })
        .png()
        .toBuffer(),
    );
    const next = replaced.json<BusinessAnswer>().photo!;
    expect(next.path).toMatch(/\.png$/);
    expect((await get(photo.path)).statusCode).toBe(404);
    expect((await get(next.path)).headers['content-type']).toBe('image/png');

    const removed = await owner('POST', '/api/owner/business/photo/remove');
    expect(removed.json<BusinessAnswer>().photo).toBeNull();
    expect((await get(next.path)).statusCode).toBe(404);
    // A photo after the removal never takes an address a browser may hold for a year.
    const again = await send(fromPhone);
    const third = again.json<BusinessAnswer>().photo!;
    expect([photo.path, next.path]).not.toContain(third.path);
    expect((await get(third.path)).statusCode).toBe(200);
    await owner('POST', '/api/owner/business/photo/remove');
    const actions = await t.query<{ action: string }>(
      `select action from audit_log where action like 'business.photo%' order by id`,
    );
    expect(actions.map((a) => a.action)).toEqual([
      'business.photo',
      'business.photo',
      'business.photo',
      'business.photo-remove',
      'business.photo',
      'business.photo-remove',
    ]);
  });

  it('names the business’s address in the e-mails’ footers', () => {
    const content = { heading: 'Hello', preheader: 'Hi', blocks: [] };
    const none = renderEmail(content);
    expect(none.text).not.toContain('Example Court');
    const named = renderEmail(content, { name: DETAILS.name, address: DETAILS.address });
    expect(named.text).toContain('Sterling Sats Ltd, 12 Test Street, London, EC1A 9ZZ');
    expect(named.html).toContain('12 Test Street');
  });
});
