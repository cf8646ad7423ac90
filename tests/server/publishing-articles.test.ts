/**
 * The articles in the owner's console (issue #25 items 1 and 5, decision 047), on
 * PostgreSQL: the owner writes a draft (its first revision), saves new versions (a save naming an
 * older version is refused 409, and changes nothing), restores an earlier one as a new save; a slug
 * is unique among the articles and the old slugs of the others, and a published article's slug
 * change leaves a redirect; publishing, scheduling (a past or non-existent UK time refused) and
 * unpublishing move the publication counter when the site changes, each audited; a scheduled
 * article goes live once after a restart, even when two calls run at once; the one-time import runs
 * once; an article whose figures are of an earlier tax year is flagged in the list and the overview;
 * malformed input is refused with 400 and a sentence.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../src/contract/route';
import type { ConsoleServices, OwnerRoutes } from '../../src/server/kit/http/owner-routes';
import type {
  ArticleDetail,
  ArticlePreview,
  ArticleRevisionDetail,
  ArticleRevisionSummary,
  ArticleSummary,
} from '../../src/features/publishing/articles-console-contract';
import { articleRoutes } from '../../src/features/publishing/articles-console-contract';
import { articlesArea } from '../../src/features/publishing/articles-console.server';
import { STALE } from '../../src/features/publishing/article-editing.server';
import {
  articleRedirectList,
  importArticles,
  publishDueArticles,
  publishedArticles,
} from '../../src/features/publishing/articles.server';
import { publicationVersion } from '../../src/server/kit/publication';
import { ukLocalInput } from '../../src/lib/uk-dates';
import { makeFormsApp, OWNER, testDrivers, type FormsTestApp } from './forms-support';
import { apiCall, asOwner, signInOwner, type OwnerCall } from './owner-session';

const drivers = await testDrivers('publishing_articles');

/** A slug of this run's own, so that the tests never meet the repository's articles. */
const slugOf = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

const input = (label: string, overrides: Record<string, unknown> = {}) => ({
  title: `An article about ${label}`,
  summary: `What ${label} means for a UK investor.`,
  slug: slugOf(label),
  date: '2026-06-01',
  taxYear: '',
  body: `## ${label}\n\nSome **words** about ${label}, and [a link](https://www.gov.uk/).`,
  ...overrides,
});

async function create(owner: OwnerCall, body: Record<string, unknown>): Promise<ArticleDetail> {
  const res = await owner('POST', '/api/owner/articles', { body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ArticleDetail>();
}

async function save(owner: OwnerCall, article: ArticleDetail, changes: Record<string, unknown>) {
  const { title, summary, slug, date, body, version } = article;
  return owner('POST', `/api/owner/articles/${article.id}`, {
    body: { title, summary, slug, date, taxYear: article.taxYear ?? '', body, version, ...changes },
  });
}

async function detail(owner: OwnerCall, id: string): Promise<ArticleDetail> {
  const res = await owner('GET', `/api/owner/articles/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ArticleDetail>();
}

async function act(owner: OwnerCall, id: string, action: string, body?: unknown) {
  return owner('POST', `/api/owner/articles/${id}/${action}`, { body });
}

async function auditOf(t: FormsTestApp, id: string) {
  return t.query<{ actor: string; action: string; detail: Record<string, unknown> | null }>(
    `select actor, action, detail from audit_log where target = '${id}' order by id`,
  );
}

/** A UK wall-clock time some days ahead, as the form gives it. */
const daysAhead = (days: number) =>
  ukLocalInput(new Date(Date.now() + days * 86_400_000)).slice(0, 11) + '10:00';

describe.each(drivers)('articles in the console on $name', (driver) => {
  let t: FormsTestApp;
  let owner: OwnerCall;
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  const db = () => t.app.services.database.db;

  beforeAll(async () => {
    const database = await driver.env();
    drop = database.drop;
    env = database.env;
    t = await makeFormsApp(env);
    owner = asOwner(t.app, await signInOwner(t.app));
  });

  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('creates a draft with its first revision, and refuses what the owner must correct', async () => {
    const bad = await owner('POST', '/api/owner/articles', {
      body: {
        title: '',
        summary: 'x'.repeat(301),
        slug: 'Not A Slug',
        date: '2026-02-30',
        taxYear: '2025-27',
        body: '',
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Please correct the highlighted fields.');
    expect(bad.json().fieldErrors).toMatchObject({
      title: 'Please enter a title.',
      summary: 'The summary can be at most 300 characters.',
      slug: expect.stringMatching(/^The address may use lower-case letters/),
      date: expect.stringMatching(/^Please give the date as YYYY-MM-DD/),
      taxYear: expect.stringMatching(/^Please give the tax year as 2025-26/),
      body: 'Please write the article.',
    });

    const article = await create(owner, input('drafts', { taxYear: '2026-27' }));
    expect(article).toMatchObject({ status: 'draft', version: 1, taxYear: '2026-27', publicPath: null });
    const revisions = await owner('GET', `/api/owner/articles/${article.id}/revisions`);
    expect(revisions.json<{ items: ArticleRevisionSummary[] }>().items).toMatchObject([
      { version: 1, savedBy: OWNER, title: article.title },
    ]);
    const list = await owner('GET', '/api/owner/articles');
    expect(list.json<{ items: ArticleSummary[] }>().items.find((a) => a.id === article.id)).toMatchObject({
      status: 'draft',
      datedFigures: false,
    });
    expect((await auditOf(t, article.id)).map((a) => a.action)).toEqual(['article.create']);
    expect((await owner('GET', `/api/owner/articles/${randomUUID()}`)).statusCode).toBe(404);
  });

  it('saves new versions; a save naming an older version is refused 409 and changes nothing', async () => {
    const article = await create(owner, input('versions'));
    const first = await save(owner, article, { title: 'Saved in the first tab' });
    expect(first.statusCode, first.body).toBe(200);
    const saved = first.json<ArticleDetail>();
    expect(saved).toMatchObject({ version: 2, title: 'Saved in the first tab' });

    // The second tab still holds version 1.
    const stale = await save(owner, article, { title: 'Typed in the second tab' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ error: STALE });
    expect(STALE).toMatch(/another tab or window/);
    expect(await detail(owner, article.id)).toMatchObject({ version: 2, title: 'Saved in the first tab' });
    const revisions = await owner('GET', `/api/owner/articles/${article.id}/revisions`);
    expect(revisions.json<{ items: ArticleRevisionSummary[] }>().items.map((r) => r.version)).toEqual([2, 1]);
    expect((await auditOf(t, article.id)).map((a) => a.action)).toEqual(['article.create', 'article.save']);
  });

  it('shows a revision and restores it as a new save, audited; a stale restore is refused', async () => {
    const article = await create(owner, input('restore'));
    const changed = (
      await save(owner, article, { title: 'A better title', body: 'New words.' })
    ).json<ArticleDetail>();
    const { items } = (await owner('GET', `/api/owner/articles/${article.id}/revisions`)).json<{
      items: ArticleRevisionSummary[];
    }>();
    const original = items.find((r) => r.version === 1)!;
    const shown = await owner('GET', `/api/owner/articles/${article.id}/revisions/${original.id}`);
    expect(shown.json<ArticleRevisionDetail>()).toMatchObject({
      version: 1,
      title: article.title,
      body: article.body,
      html: expect.stringContaining('<strong>words</strong>'),
    });
    // Another article's revision is not this one's.
    const other = await create(owner, input('other'));
    expect((await owner('GET', `/api/owner/articles/${other.id}/revisions/${original.id}`)).statusCode).toBe(
      404,
    );

    const staleRestore = await owner(
      'POST',
      `/api/owner/articles/${article.id}/revisions/${original.id}/restore`,
      {
        body: { version: 1 },
      },
    );
    expect(staleRestore.statusCode).toBe(409);
    const restored = await owner(
      'POST',
      `/api/owner/articles/${article.id}/revisions/${original.id}/restore`,
      {
        body: { version: changed.version },
      },
    );
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<ArticleDetail>()).toMatchObject({
      version: 3,
      title: article.title,
      body: article.body,
    });
    const audit = await auditOf(t, article.id);
    expect(audit.at(-1)).toMatchObject({
      actor: OWNER,
      action: 'article.restore',
      detail: { from: 1, version: 3 },
    });
    const after = (await owner('GET', `/api/owner/articles/${article.id}/revisions`)).json<{
      items: ArticleRevisionSummary[];
    }>();
    expect(after.items.map((r) => r.version)).toEqual([3, 2, 1]);
  });

  it('refuses a slug another article has', async () => {
    const a = await create(owner, input('clash'));
    const taken = await owner('POST', '/api/owner/articles', { body: input('clash-two', { slug: a.slug }) });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().fieldErrors).toEqual({ slug: taken.json().error });
    expect(taken.json().error).toMatch(/^Another article already has this address/);
    const b = await create(owner, input('clash-three'));
    const moved = await save(owner, b, { slug: a.slug });
    expect(moved.statusCode).toBe(409);
    expect(moved.json().fieldErrors.slug).toMatch(/^Another article/);
  });

  it('publishes and unpublishes, raising the counter and auditing; a published article’s slug change leaves a redirect', async () => {
    const article = await create(owner, input('moving', { body: 'First words.' }));
    const before = await publicationVersion(db());
    // A draft's save changes nothing on the site.
    const draftSave = (await save(owner, article, { body: 'Second words.' })).json<ArticleDetail>();
    expect(await publicationVersion(db())).toBe(before);

    const stalePublish = await act(owner, article.id, 'publish', { version: 1 });
    expect(stalePublish.statusCode).toBe(409);
    const published = await act(owner, article.id, 'publish', { version: draftSave.version });
    expect(published.statusCode, published.body).toBe(200);
    const live = published.json<ArticleDetail>();
    expect(live).toMatchObject({ status: 'published', publicPath: `/resources/articles/${article.slug}` });
    expect(live.publishedAt).not.toBeNull();
    expect(await publicationVersion(db())).toBe(before + 1);
    expect((await act(owner, article.id, 'publish', { version: live.version })).statusCode).toBe(409);
    expect((await publishedArticles(db())).find((a) => a.slug === article.slug)).toMatchObject({
      title: article.title,
      html: '<p>Second words.</p>\n',
      words: 2,
      readingMinutes: 1,
    });

    // A new slug: the old one leads to it.
    const newSlug = slugOf('moved');
    const moved = await save(owner, live, { slug: newSlug });
    expect(moved.statusCode, moved.body).toBe(200);
    const afterMove = moved.json<ArticleDetail>();
    expect(afterMove.publicPath).toBe(`/resources/articles/${newSlug}`);
    expect(await publicationVersion(db())).toBe(before + 2);
    expect(await articleRedirectList(db())).toContainEqual({ from: article.slug, to: newSlug });

    // Another article may not take the old slug: it still leads to this one.
    const squatter = await owner('POST', '/api/owner/articles', {
      body: input('squat', { slug: article.slug }),
    });
    expect(squatter.statusCode).toBe(409);
    expect(squatter.json().fieldErrors.slug).toMatch(/^This address belonged to another article/);

    // Taking its old slug back: that redirect goes, the slug it leaves becomes one.
    const back = (await save(owner, afterMove, { slug: article.slug })).json<ArticleDetail>();
    const redirects = await articleRedirectList(db());
    expect(redirects.filter((r) => r.to === article.slug || r.from === article.slug)).toEqual([
      { from: newSlug, to: article.slug },
    ]);

    // Unpublished: off the site, its redirects left out, the counter raised.
    const unpublished = await act(owner, back.id, 'unpublish');
    expect(unpublished.json<ArticleDetail>()).toMatchObject({ status: 'unpublished', publicPath: null });
    expect(await publicationVersion(db())).toBe(before + 4);
    expect((await publishedArticles(db())).some((a) => a.slug === article.slug)).toBe(false);
    expect((await articleRedirectList(db())).some((r) => r.from === newSlug)).toBe(false);
    expect((await act(owner, back.id, 'unpublish')).statusCode).toBe(409);

    expect((await auditOf(t, article.id)).map((a) => a.action)).toEqual([
      'article.create',
      'article.save',
      'article.publish',
      'article.save',
      'article.save',
      'article.unpublish',
    ]);
  });

  it('schedules at a UK time in the future, refusing a past or non-existent one; unschedules', async () => {
    const article = await create(owner, input('schedule'));
    const refused = async (at: string) => {
      const res = await act(owner, article.id, 'schedule', { at, version: 1 });
      expect(res.statusCode, at).toBe(400);
      expect(res.json().fieldErrors?.at ?? res.json().error).toMatch(/^[A-Z].*\.$/);
      return res.json<{ error: string }>().error;
    };
    expect(await refused('2020-01-01T10:00')).toBe(
      'Please choose a time in the future, or publish the article now.',
    );
    expect(await refused('2099-02-30T10:00')).toMatch(/do not exist/);
    // 01:30 on the last Sunday of March 2099 (29 March): the clocks go from 01:00 to 02:00.
    expect(await refused('2099-03-29T01:30')).toMatch(/do not exist/);
    expect(await refused('')).toBe('Please correct the highlighted fields.');
    expect(await refused('tomorrow')).toBe('Please correct the highlighted fields.');

    const at = daysAhead(3);
    // Nothing to read (marks, no words) is refused now, as publishing it now is.
    const empty = await create(owner, { ...input('schedule-empty'), body: '***' });
    const emptyRefused = await act(owner, empty.id, 'schedule', { at, version: 1 });
    expect(emptyRefused.statusCode).toBe(409);
    expect(emptyRefused.json().error).toBe('This article has no words to publish yet. Please write it and save it first.');
    expect((await act(owner, empty.id, 'publish', { version: 1 })).statusCode).toBe(409);

    const scheduled = await act(owner, article.id, 'schedule', { at, version: 1 });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json<ArticleDetail>()).toMatchObject({ status: 'scheduled', publishAtLocal: at });
    const unscheduled = await act(owner, article.id, 'unschedule');
    expect(unscheduled.json<ArticleDetail>()).toMatchObject({ status: 'draft', publishAt: null });
    expect((await act(owner, article.id, 'unschedule')).statusCode).toBe(409);
    expect((await auditOf(t, article.id)).map((a) => a.action)).toEqual([
      'article.create',
      'article.schedule',
      'article.unschedule',
    ]);
    const words = await owner('GET', '/api/owner/audit?kind=articles');
    const sentences = words.json<{ items: { sentence: string }[] }>().items.map((e) => e.sentence);
    expect(sentences).toContain(`Owner unscheduled article “${article.title}” (a draft again)`);
  });

  it('previews the Markdown as the page shows it, running nothing', async () => {
    const res = await owner('POST', '/api/owner/articles/preview', {
      body: {
        body: '## Hi\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror=alert(1)>',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const { html, words, readingMinutes } = res.json<ArticlePreview>();
    expect(html).toContain('<h2>Hi</h2>');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toMatch(/<script|<img|href="javascript/i);
    expect(words).toBeGreaterThan(0);
    expect(readingMinutes).toBe(1);
  });

  it('reads an article of 100,000 characters (more than a form’s body), and refuses one longer', async () => {
    const long = 'Words and more words. '.repeat(5000).slice(0, 100_000);
    const article = await create(owner, input('long', { body: long }));
    expect(article.body.length).toBe(long.trim().length);
    const tooLong = await save(owner, article, { body: `${long}x` });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().fieldErrors.body).toBe('The article can be at most 100,000 characters.');
  });

  it('refuses malformed input with 400 and a sentence', async () => {
    const article = await create(owner, input('malformed'));
    const noVersion = await owner('POST', `/api/owner/articles/${article.id}`, { body: input('malformed') });
    expect(noVersion.statusCode).toBe(400);
    expect(noVersion.json().error).toBe('Please correct the highlighted fields.');
    const badPublish = await act(owner, article.id, 'publish', { version: 'one' });
    expect(badPublish.statusCode).toBe(400);
    expect(badPublish.json().error).toMatch(/^The page did not say which version/);
    expect((await owner('GET', '/api/owner/articles/not-an-id')).statusCode).toBe(404);
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/owner/articles/preview',
      headers: {
        origin: new URL(t.app.config.publicUrl).origin,
        'content-type': 'application/json',
        cookie: await signInOwner(t.app),
      },
      payload: '{"body":',
    });
    expect(notJson.statusCode).toBe(400);
  });

  it('flags an article whose figures are of an earlier tax year, in the list and the overview', async () => {
    const dated = await create(owner, input('dated', { taxYear: '2020-21', title: `Dated ${randomUUID()}` }));
    await act(owner, dated.id, 'publish', { version: 1 });
    const current = await create(owner, input('current', { taxYear: '2099-00' }));
    await act(owner, current.id, 'publish', { version: 1 });
    const { items } = (await owner('GET', '/api/owner/articles')).json<{ items: ArticleSummary[] }>();
    expect(items.find((a) => a.id === dated.id)?.datedFigures).toBe(true);
    expect(items.find((a) => a.id === current.id)?.datedFigures).toBe(false);
    const overview = (await owner('GET', '/api/owner/overview')).json<{
      datedArticles: { id: string; title: string; taxYear: string }[];
    }>();
    expect(overview.datedArticles).toContainEqual({ id: dated.id, title: dated.title, taxYear: '2020-21' });
    expect(overview.datedArticles.some((a) => a.id === current.id)).toBe(false);
  });

  it('tells the site after the commit of each action that changed it, and only those', async () => {
    let told = 0;
    const handlers = new Map<Route, (input: Record<string, unknown>) => Promise<unknown>>();
    const routes: OwnerRoutes = {
      on: (route, handler) => void handlers.set(route, handler as never),
    };
    articlesArea(() => (told += 1))(routes, { db: db(), clock: () => new Date() } as ConsoleServices);
    const call = (route: Route, params: object, body?: object) =>
      handlers.get(route)!({ params, body, owner: { email: OWNER }, request: { log: console } });
    const article = (await call(
      articleRoutes.create,
      {},
      { ...input('told'), taxYear: '' },
    )) as ArticleDetail;
    const saved = (await call(
      articleRoutes.save,
      { id: article.id },
      { ...input('told'), taxYear: '', slug: article.slug, version: 1 },
    )) as ArticleDetail;
    expect(told).toBe(0);
    await call(articleRoutes.publish, { id: article.id }, { version: saved.version });
    expect(told).toBe(1);
    await call(
      articleRoutes.save,
      { id: article.id },
      { ...input('told'), taxYear: '', slug: article.slug, version: saved.version },
    );
    expect(told).toBe(2);
    await call(articleRoutes.unpublish, { id: article.id });
    expect(told).toBe(3);
    await expect(call(articleRoutes.unpublish, { id: article.id })).rejects.toMatchObject({ status: 409 });
    expect(told).toBe(3);
  });

  it('imports the given articles once, even asked twice at once', async () => {
    await t.query(`update site_publication set articles_imported_at = null where id = 1`);
    const before = await publicationVersion(db());
    const file = {
      slug: slugOf('imported'),
      title: 'An imported article',
      date: '2025-06-08',
      summary: 'From the repository.',
      body: 'Imported words.',
      taxYear: '2025-26',
    };
    const counts = await Promise.all([importArticles(db(), [file]), importArticles(db(), [file])]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(await importArticles(db(), [{ ...file, slug: slugOf('late') }])).toBe(0);
    expect(await publicationVersion(db())).toBe(before + 1);
    const [row] = await t.query<{ id: string; status: string; tax_year: string }>(
      `select id, status, tax_year from articles where slug = '${file.slug}'`,
    );
    expect(row).toMatchObject({ status: 'published', tax_year: '2025-26' });
    const revisions = await t.query<{ saved_by: string; version: number }>(
      `select saved_by, version from article_revisions where article_id = '${row!.id}'`,
    );
    expect(revisions).toEqual([{ saved_by: 'import', version: 1 }]);
    expect((await publishedArticles(db())).find((a) => a.slug === file.slug)).toMatchObject({
      taxYear: '2025-26',
      html: '<p>Imported words.</p>\n',
    });
  });

  it('publishes a due scheduled article once after a restart, even called twice at once', async () => {
    const article = await create(owner, input('due'));
    await act(owner, article.id, 'schedule', { at: daysAhead(2), version: 1 });
    // Its time comes while the server is down.
    await t.query(`update articles set publish_at = now() - interval '1 minute' where id = '${article.id}'`);
    const dataDir = t.dataDir;
    await t.app.close();
    t = await makeFormsApp(env, { dataDir });
    owner = asOwner(t.app, await signInOwner(t.app));

    const counts = await Promise.all([publishDueArticles(db()), publishDueArticles(db())]);
    expect(counts[0]! + counts[1]!).toBeLessThanOrEqual(1);
    expect(await publishDueArticles(db())).toBe(0);
    expect(await detail(owner, article.id)).toMatchObject({ status: 'published' });
    const goLive = (await auditOf(t, article.id)).filter((a) => a.action === 'article.publish');
    expect(goLive).toEqual([{ actor: 'system', action: 'article.publish', detail: { scheduled: true } }]);

    // A scheduled one whose time has not come stays scheduled.
    const later = await create(owner, input('later'));
    await act(owner, later.id, 'schedule', { at: daysAhead(2), version: 1 });
    expect(await publishDueArticles(db())).toBe(0);
    expect(await publishDueArticles(db(), new Date(Date.now() + 3 * 86_400_000))).toBe(1);
    expect(await detail(owner, later.id)).toMatchObject({ status: 'published' });
  });

  it('is the owner’s alone', async () => {
    expect((await apiCall(t.app, 'GET', '/api/owner/articles')).statusCode).toBe(401);
  });
});

const postgres = drivers.find((d) => d.name === 'PostgreSQL');

describe.skipIf(!postgres)('two instances on one PostgreSQL', () => {
  it('publish a due article once when both look at once', async () => {
    const database = await postgres!.env();
    const a = await makeFormsApp(database.env);
    const b = await makeFormsApp(database.env);
    try {
      const owner = asOwner(a.app, await signInOwner(a.app));
      const ids: string[] = [];
      for (let n = 0; n < 5; n += 1) {
        const article = await create(owner, input(`pair-${n}`));
        await act(owner, article.id, 'schedule', { at: daysAhead(2), version: 1 });
        ids.push(article.id);
      }
      await a.query(
        `update articles set publish_at = now() - interval '1 second' where id in ('${ids.join("','")}')`,
      );
      const dbs = [a.app.services.database.db, b.app.services.database.db];
      const counts = await Promise.all([...dbs, ...dbs].map((db) => publishDueArticles(db)));
      expect(counts.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(5);
      const rows = await a.query<{ status: string }>(
        `select status from articles where id in ('${ids.join("','")}')`,
      );
      expect(rows.every((r) => r.status === 'published')).toBe(true);
      const audits = await a.query<{ target: string }>(
        `select target from audit_log where action = 'article.publish' and target in ('${ids.join("','")}')`,
      );
      expect(audits.map((r) => r.target).sort()).toEqual([...ids].sort());
    } finally {
      await a.app.close();
      await b.app.close();
      await database.drop();
    }
  });
});
