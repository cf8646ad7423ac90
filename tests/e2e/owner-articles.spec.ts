/**
 * The console's Articles pages in real Chromium (issue #25, decision 047): the owner writes an
 * article (the server's field errors shown first; the address follows the title), sees it in the
 * live preview in the site's article style as they type (raw HTML shown as text), saves it; a save
 * from another page that opened the same version first wins, and this page's save is refused with
 * the sentence while every word typed stays; then the owner publishes it (after the dialog), sees
 * its public link, and the site answers its page. An article scheduled for a UK time and
 * unscheduled; a saved version viewed and restored. The pages axe-clean at 1280 and 375 px without
 * sideways scroll.
 */
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
      // 401 and 409 (the stale save, refused on purpose).
      EXPECTED_CONSOLE_ERRORS.source,
      // The form's empty submission is answered 400 on purpose, which the browser logs.
      '^Failed to load resource: the server responded with a status of 400',
    ].join('|'),
  ),
});

const status = (page: Page, text: string | RegExp) => page.getByRole('status').filter({ hasText: text });
const field = (page: Page, label: RegExp) => page.getByRole('textbox', { name: label });

/** A draft made through the console API, with the signed-in page's session. */
async function createDraft(page: Page, title: string): Promise<ArticleDetail> {
  const created = await page.request.post('/api/owner/articles', {
    data: {
      title,
      summary: 'A short summary for the test.',
      slug: slugFromTitle(title),
      date: ukDateOf(new Date()),
      taxYear: '',
      body: `## A heading\n\nA few words for ${title}.`,
    },
    headers: sameOrigin,
  });
  expect(created.status(), await created.text()).toBe(200);
  return (await created.json()) as ArticleDetail;
}

test('the owner writes an article with its live preview, a stale save is refused keeping the text, then it is published', async ({
  ownerPage: page,
}) => {
  test.setTimeout(90_000);
  const tag = uniqueTag('article');
  const title = `Pensions and Bitcoin ${tag}`;
  const slug = slugFromTitle(title);

  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name: 'Articles', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Articles' })).toBeFocused();
  await page.getByRole('link', { name: 'New article' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New article' })).toBeFocused();

  // Saved empty: the fields marked, the first focused.
  await page.getByRole('button', { name: 'Save draft' }).click();
  const titleField = field(page, /^Title/);
  await expect(titleField).toHaveAttribute('aria-invalid', 'true');
  await expect(titleField).toHaveAccessibleDescription(/Please enter a title\./);
  await expect(titleField).toBeFocused();
  await expect(field(page, /^Text/)).toHaveAttribute('aria-invalid', 'true');

  // The address follows the title.
  await titleField.fill(title);
  await expect(field(page, /^Address/)).toHaveValue(slug);
  await field(page, /^Summary/).fill('What a pension wrapper changes for a Bitcoin holder.');
  const body = field(page, /^Text/);
  await body.fill(
    `## What changes\n\nThe words of ${tag}, with **bold** text and [a link](https://www.gov.uk/).\n\n<script>window.leaked = true</script>`,
  );

  // The preview shows the text as the page will, in the site's article style; raw HTML is text.
  const preview = page.getByRole('region', { name: 'Preview of the article' });
  await expect(preview.getByRole('heading', { name: 'What changes' })).toBeVisible();
  await expect(preview).toContainText(`The words of ${tag}`);
  await expect(preview.locator('.article-body strong')).toHaveText('bold');
  await expect(preview.locator('.article-body')).toContainText('<script>window.leaked = true</script>');
  await expect(preview.locator('script')).toHaveCount(0);
  await expect(preview.getByRole('link', { name: 'a link' })).toHaveAttribute('target', '_blank');
  expect(await page.evaluate(() => (window as { leaked?: boolean }).leaked)).toBeUndefined();
  // It follows the typing.
  await body.focus();
  await body.press('Control+End');
  await body.pressSequentially('\n\nOne more line.');
  await expect(preview).toContainText('One more line.');

  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeFocused();
  await expect(status(page, 'Draft saved.')).toBeVisible();
  await expect(page).toHaveURL(/\/owner\/articles\/[0-9a-f-]{36}$/);
  const id = /\/owner\/articles\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
  const details = page.getByRole('region', { name: 'About this article' });
  await expect(details.getByText('Draft', { exact: true })).toBeVisible();

  // Another page opens the same version, changes the summary and saves first.
  const other = await page.context().newPage();
  await gotoHydrated(other, `/owner/articles/${id}`);
  await expect(other.getByRole('heading', { level: 1, name: title, exact: true })).toBeFocused();
  await field(other, /^Summary/).fill('Saved from the other window.');
  await other.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(status(other, 'Saved.')).toBeVisible();
  await other.close();

  // This page still holds the version it loaded: its save is refused, and the words typed stay.
  await body.fill(`${await body.inputValue()}\n\nA paragraph typed here.`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'another tab or window' });
  await expect(refusal).toBeVisible();
  await expect(refusal).toContainText('Your text is still on this page');
  await expect(body).toHaveValue(/A paragraph typed here\.$/);
  await expect(field(page, /^Summary/)).toHaveValue('What a pension wrapper changes for a Bitcoin holder.');
  await expect(preview).toContainText('A paragraph typed here.');
  const stored = (await (await page.request.get(`/api/owner/articles/${id}`)).json()) as ArticleDetail;
  expect(stored.summary).toBe('Saved from the other window.');
  expect(stored.body).not.toContain('A paragraph typed here.');

  // Reloaded, the page shows the other save; publishing waits while the form differs from it.
  await gotoHydrated(page, `/owner/articles/${id}`);
  await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeFocused();
  await expect(field(page, /^Summary/)).toHaveValue('Saved from the other window.');
  await field(page, /^Summary/).fill('Changed, not yet saved.');
  await expect(page.getByRole('button', { name: 'Publish now' })).toBeDisabled();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(status(page, 'Saved.')).toBeVisible();

  // Publish now asks first.
  await page.getByRole('button', { name: 'Publish now' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish this article now?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Not yet' }).click();
  await expect(dialog).toBeHidden();
  await expect(details.getByText('Draft', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Publish now' }).click();
  await dialog.getByRole('button', { name: 'Publish now' }).click();
  await expect(status(page, 'Published. The site shows it now.')).toBeVisible();
  await expect(details.getByText('Published', { exact: true })).toBeVisible();
  await expect(details.getByRole('link', { name: `/resources/articles/${slug}` })).toHaveAttribute(
    'href',
    `/resources/articles/${slug}`,
  );
  await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();
  // The button is gone: its section's heading has focus.
  await expect(page.getByRole('heading', { level: 2, name: 'Publish', exact: true })).toBeFocused();

  // The saved versions: three saves, the newest current.
  const versions = page.getByRole('region', { name: 'Saved versions, newest first' });
  await expect(versions.getByRole('row')).toHaveCount(4);
  await expect(versions.getByRole('row').nth(1)).toContainText('Current');

  // The site shows it (rendered by the publisher after the commit).
  await expect
    .poll(async () => (await page.request.get(`/resources/articles/${slug}`)).status(), { timeout: 30_000 })
    .toBe(200);
  const publicPage = await (await page.request.get(`/resources/articles/${slug}`)).text();
  expect(publicPage).toContain(`The words of ${tag}`);
  expect(publicPage).not.toContain('<script>window.leaked');

  await expect(page.getByText('Loading…')).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The list: its status in words.
  await page.getByRole('link', { name: 'Back to the articles' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Articles' })).toBeFocused();
  const row = page.getByRole('row', { name: new RegExp(title) });
  await expect(row.getByRole('cell', { name: 'Published', exact: true })).toBeVisible();
});

test('an article scheduled for a UK time, then unscheduled; a saved version viewed and restored', async ({
  ownerPage: page,
}) => {
  const draft = await createDraft(page, `Scheduled notes ${uniqueTag('sched')}`);
  await gotoHydrated(page, `/owner/articles/${draft.id}`);
  await expect(page.getByRole('heading', { level: 1, name: draft.title, exact: true })).toBeFocused();
  const details = page.getByRole('region', { name: 'About this article' });

  // No time: nothing is scheduled, and the field says why.
  const at = page.getByLabel(/^Publish at/);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(at).toBeFocused();
  await expect(at).toHaveAccessibleDescription(/Please choose the date and time to publish it\./);

  const day = ukDateOf(new Date(Date.now() + 3 * 24 * 3_600_000));
  await at.fill(`${day}T10:00`);
  await page.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(status(page, /^Scheduled for .*10:00 \(UK time\)\.$/)).toBeVisible();
  await expect(details.getByText('Scheduled', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Unschedule' }).click();
  await expect(status(page, 'Unscheduled: the article is a draft again.')).toBeVisible();
  await expect(details.getByText('Draft', { exact: true })).toBeVisible();

  // A second save, then the first viewed and restored.
  await field(page, /^Title/).fill(`${draft.title} (second)`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(status(page, 'Saved.')).toBeVisible();
  await page.getByRole('button', { name: 'View version 1' }).click();
  await expect(page.getByRole('heading', { level: 3, name: 'Version 1' })).toBeFocused();
  await expect(page.locator('#article-revision .article-body')).toContainText(
    `A few words for ${draft.title}.`,
  );
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('button', { name: 'View version 1' })).toBeFocused();
  const versions = page.getByRole('region', { name: 'Saved versions, newest first' });
  await versions.getByRole('row', { name: /^1\b/ }).getByRole('button', { name: 'Restore' }).click();
  const dialog = page.getByRole('dialog', { name: 'Restore version 1?' });
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await expect(status(page, 'Version 1 restored as version 3.')).toBeVisible();
  await expect(field(page, /^Title/)).toHaveValue(draft.title);
  await expect(versions.getByRole('row')).toHaveCount(4);
});

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the Articles list, the new article form (with its errors) and a draft with its preview have no violations and no sideways scroll', async ({
      ownerPage: page,
    }) => {
      const draft = await createDraft(page, `Checked notes ${uniqueTag('axe')}`);
      const check = async (what: string) => {
        await expect(page.getByText('Loading…')).toHaveCount(0);
        await expectNoAxeViolations(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, what).toBeLessThanOrEqual(0);
      };

      await gotoHydrated(page, '/owner/articles');
      await expect(page.getByRole('heading', { level: 1, name: 'Articles' })).toBeFocused();
      await expect(page.getByRole('row', { name: new RegExp(draft.title) })).toBeVisible();
      await check('the list');

      await gotoHydrated(page, '/owner/articles/new');
      await expect(page.getByRole('heading', { level: 1, name: 'New article' })).toBeFocused();
      await check('the form');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await expect(field(page, /^Title/)).toHaveAttribute('aria-invalid', 'true');
      await check('the form with its errors');

      await gotoHydrated(page, `/owner/articles/${draft.id}`);
      await expect(page.getByRole('heading', { level: 1, name: draft.title, exact: true })).toBeFocused();
      await expect(page.getByRole('region', { name: 'Preview of the article' })).toContainText(
        `A few words for ${draft.title}.`,
      );
      await check('a draft with its preview');
      await page.getByRole('button', { name: 'View version 1' }).click();
      await expect(page.getByRole('heading', { level: 3, name: 'Version 1' })).toBeFocused();
      await check('a saved version');
      await page.getByRole('button', { name: 'Publish now' }).click();
      await expect(page.getByRole('dialog', { name: 'Publish this article now?' })).toBeVisible();
      await check('the publish dialog');
      await page.keyboard.press('Escape');
      await expect(page.getByRole('button', { name: 'Publish now' })).toBeFocused();
    });
  });
}
