/**
 * An article's cover image in real Chromium (issue #25 item 1, decision 050): in the article's
 * editor the owner is told what a cover needs before anything is sent (a file, its alt text) and
 * why the server refuses a file (too small; a text file named .jpg), each sentence by its field,
 * which takes focus; a good image with its alt text is uploaded and shown; the article published,
 * its page shows the cover in AVIF (the browser's pick of the <picture>), loaded first, with its
 * alt text and its size, and the page and the editor (at 1280 and 375 px, without sideways scroll)
 * are axe-clean. The owner specs share one server: this one makes its own draft and assumes
 * nothing else.
 */
import sharp from 'sharp';
import type { Page } from '@playwright/test';
import type { ArticleDetail } from '../../src/features/publishing/articles-console-contract';
import { slugFromTitle } from '../../src/features/publishing/articles-console-contract';
import { ukDateOf } from '../../src/lib/uk-dates';
import { expectNoAxeViolations } from './support/axe';
import { expect, gotoHydrated } from './support/fixtures';
import { EXPECTED_CONSOLE_ERRORS, sameOrigin, test, uniqueTag } from './owner-support';

test.use({
  allowConsoleErrors: new RegExp(
    [
      EXPECTED_CONSOLE_ERRORS.source,
      // The refused files are answered 400 on purpose, which the browser logs.
      '^Failed to load resource: the server responded with a status of 400',
    ].join('|'),
  ),
});

const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });

/** A picture of some colour and shape, as a photo compresses. */
function picture(width: number, height: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#f7931a"/><stop offset="1" stop-color="#1b2a4a"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${height / 4}" fill="#fed7aa"/></svg>`;
  return sharp(Buffer.from(svg));
}

test('the owner uploads a cover with its alt text, refused files said why, and the published article shows it', async ({
  ownerPage: page,
}) => {
  test.setTimeout(90_000);
  const title = `Cover story ${uniqueTag('cover')}`;
  const created = await page.request.post('/api/owner/articles', {
    data: {
      title,
      summary: 'An article with a cover image.',
      slug: slugFromTitle(title),
      date: ukDateOf(new Date()),
      taxYear: '',
      body: `## A heading\n\nA few words for ${title}.`,
    },
    headers: sameOrigin,
  });
  expect(created.status(), await created.text()).toBe(200);
  const article = (await created.json()) as ArticleDetail;

  await gotoHydrated(page, `/owner/articles/${article.id}`);
  await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeFocused();
  const section = page.getByRole('region', { name: 'Cover image' });
  await expect(section.getByText('No cover yet.')).toBeVisible();
  const file = section.getByLabel(/^Image/);
  const alt = section.getByRole('textbox', { name: /^Description \(alt text\)/ });
  // The limits are said beside the field.
  await expect(file).toHaveAccessibleDescription(
    /JPEG, PNG or WebP, at most 5 MB, at least 1200 × 630 pixels and at most 8000 pixels a side; landscape or square/,
  );

  // Nothing chosen: both fields say what they need, the first takes focus.
  await section.getByRole('button', { name: 'Upload cover' }).click();
  await expect(file).toBeFocused();
  await expect(file).toHaveAccessibleDescription(/Please choose an image for the cover\./);
  await expect(alt).toHaveAccessibleDescription(/Please describe the image for readers who cannot see it/);

  // Refused by the server, by its bytes: too small, and a text file named .jpg.
  await alt.fill('An orange sun over a dark blue sea.');
  await file.setInputFiles({
    name: 'small.png',
    mimeType: 'image/png',
    buffer: await picture(800, 600).png().toBuffer(),
  });
  await section.getByRole('button', { name: 'Upload cover' }).click();
  await expect(file).toHaveAccessibleDescription(
    /The image is 800 × 600 pixels; it needs at least 1200 × 630 pixels to look sharp\./,
  );
  await expect(file).toBeFocused();
  await file.setInputFiles({
    name: 'cover.jpg',
    mimeType: 'image/jpeg',
    buffer: Buffer.from('Not an image at all, only words in a file named cover.jpg.'),
  });
  await section.getByRole('button', { name: 'Upload cover' }).click();
  await expect(file).toHaveAccessibleDescription(/That file is not a JPEG, PNG or WebP image\./);
  await expect(section.getByText('No cover yet.')).toBeVisible();

  // A good one: stored, and shown with its alt text.
  await file.setInputFiles({
    name: 'sunrise.jpg',
    mimeType: 'image/jpeg',
    buffer: await picture(1800, 1000).jpeg({ quality: 90 }).toBuffer(),
  });
  await section.getByRole('button', { name: 'Upload cover' }).click();
  await expect(status(page, 'The cover is saved.')).toBeVisible();
  const preview = section.getByRole('img', { name: 'An orange sun over a dark blue sea.' });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1600);
  await expect(section.getByText('Its largest copy: 1600 × 889 pixels.')).toBeVisible();
  await expect(section.getByRole('button', { name: 'Save cover' })).toBeVisible();
  await expect(page.getByText('Loading…')).toHaveCount(0);
  await expectNoAxeViolations(page);
  // On a phone's width too, with no sideways scroll.
  await page.setViewportSize({ width: 375, height: 900 });
  await expectNoAxeViolations(page);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Published, its page shows the cover.
  await page.getByRole('button', { name: 'Publish now' }).click();
  await page
    .getByRole('dialog', { name: 'Publish this article now?' })
    .getByRole('button', { name: 'Publish now' })
    .click();
  await expect(status(page, 'Published. The site shows it now.')).toBeVisible();
  const path = `/resources/articles/${article.slug}`;
  await expect.poll(async () => (await page.request.get(path)).status(), { timeout: 30_000 }).toBe(200);

  await gotoHydrated(page, path);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const cover = page.getByRole('img', { name: 'An orange sun over a dark blue sea.' });
  await expect(cover).toBeVisible();
  await expect(cover).toHaveAttribute('fetchpriority', 'high');
  await expect(cover).toHaveAttribute('width', '1600');
  await expect(cover).toHaveAttribute('height', '889');
  expect(await cover.getAttribute('loading')).toBeNull();
  // Chromium reads AVIF: the <picture>'s first source, in the width its column needs.
  await expect
    .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  const chosen = await cover.evaluate((img: HTMLImageElement) => img.currentSrc);
  expect(chosen).toMatch(/\/media\/cover-\d+-(480|960|1600)\.avif$/);
  // Its box is the image's shape before and after it loads: nothing moves.
  const box = await cover.boundingBox();
  expect(Math.abs(box!.height - (box!.width * 889) / 1600)).toBeLessThan(2);
  await expectNoAxeViolations(page);
});
