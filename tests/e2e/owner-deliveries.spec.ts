/**
 * Deliveries with a real failure: the owner server writes e-mails as .eml files, so a plain file
 * where its mail folder should be makes every write fail (the tests run as root, which ignores
 * permission bits: a chmod would not do). The failure shows in Deliveries with its error code;
 * once the folder is back, "Retry" sends the e-mail at once instead of at its next attempt. This spec runs alone, after
 * the other console specs (project `owner-alone`), since every e-mail fails while it runs.
 */
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { DeliveryList, DeliverySummary } from '../../src/contract/console';
import { expect } from './support/fixtures';
import {
  EXPECTED_CONSOLE_ERRORS,
  MAIL_DIR,
  openConsole,
  readMails,
  sendContact,
  test,
  uniqueTag,
} from './owner-support';

test.use({ allowConsoleErrors: EXPECTED_CONSOLE_ERRORS });

const KEPT = `${MAIL_DIR}.kept`;

function breakMailFolder() {
  mkdirSync(MAIL_DIR, { recursive: true });
  renameSync(MAIL_DIR, KEPT);
  writeFileSync(MAIL_DIR, 'not a folder');
}

function restoreMailFolder() {
  let isFile = false;
  try {
    isFile = statSync(MAIL_DIR).isFile();
  } catch {
    isFile = false;
  }
  if (isFile) rmSync(MAIL_DIR, { force: true });
  try {
    renameSync(KEPT, MAIL_DIR);
  } catch {
    mkdirSync(MAIL_DIR, { recursive: true });
  }
}

test.afterEach(restoreMailFolder);

test('an e-mail that cannot be written shows its error; a failed one is sent again with "Retry"', async ({
  ownerPage: page,
  request,
}) => {
  const tag = uniqueTag('turing');
  const subject = `enquiry from Alan ${tag}`;
  breakMailFolder();
  await sendContact(request, {
    firstName: 'Alan',
    lastName: tag,
    email: `${tag}@example.org`,
    message: `Lost in the post ${tag}`,
  });
  await openConsole(page, '/owner/deliveries');

  // The first attempt fails for real: the e-mail carries its error code.
  let delivery: DeliverySummary | undefined;
  await expect
    .poll(async () => {
      const answer = await page.request.get('/api/owner/deliveries');
      delivery = ((await answer.json()) as DeliveryList).items.find((d) => d.subject.includes(subject));
      return delivery?.lastError ?? null;
    })
    .not.toBeNull();
  await page.reload();
  const row = page.getByRole('row', { name: new RegExp(subject) });
  await expect(row.getByRole('cell', { name: delivery!.lastError! })).toBeVisible();
  restoreMailFolder();

  // It waits for its next attempt (25 s, then longer); the owner, having fixed the cause, sends it now.
  await expect(row.getByText('Waiting')).toBeVisible();
  await row.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The e-mail is on its way again.' })).toBeVisible();
  await expect.poll(() => readMails().filter((m) => m.text.includes(tag)).length).toBe(1);
});
