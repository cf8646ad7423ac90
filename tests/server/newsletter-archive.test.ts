/**
 * The newsletter's archive on the site (issue #26 item 6), on PostgreSQL: the build's
 * empty archive; a sent issue put on the site from the console becomes its own page, a line of
 * `/newsletter`, an entry of the archive's Atom feed and of the sitemap, and a link from the
 * Resources page, with the headers of every published page and nothing of a reader's personal
 * links; the owner's raw HTML runs nothing; an issue not sent is refused; taken off, its page and
 * lines are gone, and put back it keeps its address; the e-mail links' pages under /newsletter/
 * keep answering.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFormsApp, testDrivers, type FormsTestApp } from './forms-support';
import { apiCall, asOwner, signInOwner, type OwnerCall } from './owner-session';

const drivers = await testDrivers('newsletter_archive');

const SUBJECT = 'March: the halving, explained';
const BODY = [
  '# The halving',
  '',
  'Some **bold** words on what changes, and [our guide](/resources#download-kit).',
  '',
  '<script>alert(1)</script>',
  '',
  '[bad](javascript:alert(3))',
].join('\n');

async function insertIssue(t: FormsTestApp, status: string, subject = SUBJECT): Promise<string> {
  const id = randomUUID();
  const sent = status === 'sent';
  await t.query(
    `insert into newsletter_issues (id, subject, preheader, body, status, started_at, finished_at, recipients)
     values ('${id}', '${subject.replace(/'/g, "''")}', 'Four minutes on what changes', '${BODY.replace(/'/g, "''")}',
             '${status}', ${sent ? "'2026-11-03T09:00:00Z'" : 'null'}, ${sent ? "'2026-11-03T09:05:00Z'" : 'null'},
             ${sent ? 1 : 'null'})`,
  );
  return id;
}

describe.each(drivers)('the newsletter archive on $name', (driver) => {
  let t: FormsTestApp;
  let drop: () => Promise<void>;
  let owner: OwnerCall;
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  /** The render the console's action started, waited for. */
  const rendered = () => t.app.services.publisher.republish();

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

  it('has an empty archive and feed until an issue is put on the site', async () => {
    const list = await get('/newsletter');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('No issues are on the site yet.');
    expect(list.body).toContain('href="/newsletter/feed.xml"');
    const feed = await get('/newsletter/feed.xml');
    expect(feed.statusCode).toBe(200);
    expect(feed.body).toContain('<feed');
    expect(feed.body).not.toContain('<entry>');
    expect((await get('/resources')).body).not.toContain('Read past issues');
  });

  it('refuses an issue that has not been sent, and an unknown or malformed one', async () => {
    const draft = await insertIssue(t, 'draft');
    const before = await t.query<{ version: number }>(`select version from site_publication`);
    const refused = await owner('POST', `/api/owner/newsletter/issues/${draft}/site`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'Only an issue that has been sent can be put on the site.' });
    expect(await t.query(`select version from site_publication`)).toEqual(before);
    expect((await owner('POST', `/api/owner/newsletter/issues/${randomUUID()}/site`)).statusCode).toBe(404);
    // A malformed id names no issue, as everywhere in the console.
    expect((await owner('POST', '/api/owner/newsletter/issues/not-an-id/site')).statusCode).toBe(404);
    const notThere = await owner('POST', `/api/owner/newsletter/issues/${draft}/site/remove`);
    expect(notThere.statusCode).toBe(409);
    expect(notThere.json()).toEqual({ error: 'This issue is not on the site.' });
    // Without a session, nothing.
    const anonymous = await apiCall(t.app, 'POST', `/api/owner/newsletter/issues/${draft}/site`);
    expect(anonymous.statusCode).toBe(401);
  });

  it('puts a sent issue on the site: its page, the list, the feed, the sitemap and Resources', async () => {
    const id = await insertIssue(t, 'sent');
    const put = await owner('POST', `/api/owner/newsletter/issues/${id}/site`);
    expect(put.statusCode).toBe(200);
    const path = `/newsletter/march-the-halving-explained-${id.slice(0, 8)}`;
    expect(put.json().sitePath).toBe(path);
    const audit = await t.query<{ action: string }>(`select action from audit_log where target = '${id}'`);
    expect(audit.map((a) => a.action)).toEqual(['newsletter.site']);
    await rendered();

    const page = await get(path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(String(page.headers['content-security-policy'])).toContain("'sha256-");
    expect(page.body).toContain('March: the halving, explained');
    expect(page.body).toContain('Four minutes on what changes');
    expect(page.body).toContain('<strong>bold</strong>');
    expect(page.body).toContain('dateTime="2026-11-03"');
    // The owner's raw HTML is text; no javascript: link; no reader's personal link.
    expect(page.body).not.toContain('<script>alert(1)</script>');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).not.toContain('href="javascript:');
    expect(page.body).not.toMatch(/unsubscribe\?token|token=/);
    // Its data, for a link followed inside the app.
    expect((await get(`${path}.data`)).statusCode).toBe(200);

    const list = await get('/newsletter');
    expect(list.body).toContain(`href="${path}"`);
    expect(list.body).not.toContain('No issues are on the site yet.');
    const feed = await get('/newsletter/feed.xml');
    expect(feed.body).toContain('<title type="html"><![CDATA[March: the halving, explained]]></title>');
    expect(feed.body).toContain(`${path}"`);
    expect((await get('/sitemap.xml')).body).toContain(`${path}</loc>`);
    const resources = await get('/resources');
    expect(resources.body).toMatch(/<a href="\/newsletter"[^>]*>Read past issues/);
    // The e-mail links' own pages under /newsletter/ still answer.
    expect((await get('/newsletter/confirm')).statusCode).toBe(200);
    expect((await get('/newsletter/unsubscribe')).statusCode).toBe(200);
    expect((await get('/newsletter/no-such-issue')).statusCode).toBe(404);
  });

  it('takes an issue off the site, and puts it back at the same address', async () => {
    const id = await insertIssue(t, 'sent', 'April: custody, step by step');
    await owner('POST', `/api/owner/newsletter/issues/${id}/site`);
    await rendered();
    const path = `/newsletter/april-custody-step-by-step-${id.slice(0, 8)}`;
    expect((await get(path)).statusCode).toBe(200);

    const taken = await owner('POST', `/api/owner/newsletter/issues/${id}/site/remove`);
    expect(taken.statusCode).toBe(200);
    expect(taken.json().sitePath).toBeNull();
    await rendered();
    expect((await get(path)).statusCode).toBe(404);
    expect((await get('/newsletter')).body).not.toContain(path);
    expect((await get('/newsletter/feed.xml')).body).not.toContain(path);
    expect((await get('/sitemap.xml')).body).not.toContain(path);
    const detail = await owner('GET', `/api/owner/newsletter/issues/${id}`);
    expect(detail.json().sitePath).toBeNull();

    const back = await owner('POST', `/api/owner/newsletter/issues/${id}/site`);
    expect(back.json().sitePath).toBe(path);
    await rendered();
    expect((await get(path)).statusCode).toBe(200);
    const audit = await t.query<{ action: string }>(
      `select action from audit_log where target = '${id}' order by at, id`,
    );
    expect(audit.map((a) => a.action)).toEqual(['newsletter.site', 'newsletter.site-remove', 'newsletter.site']);
  });
});
