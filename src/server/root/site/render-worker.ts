/**
 * The process that renders the published pages (decisions 047, 049), started for a publication
 * and ended once none has come for a while (`publisher.ts`), so React's server renderer and the
 * app's routes never live in the server's memory. It runs the app's own server build
 * (`<build>/render/index.js`, kept by scripts/keep-render-build.ts) the way React Router's prerender does: each page's `.data`, then
 * its HTML with that data, the loaders reading the published content from their context. Each
 * page is then finished as the build finishes its pages (scripts/page-finish.mjs) and compressed;
 * the feed and the sitemap are made from the same articles.
 */
import { pathToFileURL } from 'node:url';
import type { createRequestHandler as CreateRequestHandler, ServerBuild } from 'react-router';
import { compressBody, COMPRESSIBLE, finishPage, MIN_COMPRESSED } from '../../../../scripts/page-finish.mjs';
import { NEWSLETTER_FEED_PATH } from '~/content/routes';
import { atomFeed, newsletterFeed, sitemapXml } from '../../kit/site-files';
import { serveJobs } from '../../kit/worker-process';
import type { RenderJob, RenderedFile } from './render-job';
import { publishedPagePaths } from './render-job';

/** The server entry's own exports (src/app/entry.server.tsx). */
type RenderEntry = {
  publishedLoadContext(published: RenderJob['published']): unknown;
  createRequestHandler: typeof CreateRequestHandler;
};

/** The render build, imported once per thread (the most of a cold render's time). */
const builds = new Map<string, Promise<ServerBuild>>();

async function render(job: RenderJob): Promise<RenderedFile[]> {
  let loading = builds.get(job.renderBuild);
  if (!loading) {
    loading = import(pathToFileURL(job.renderBuild).href) as Promise<ServerBuild>;
    builds.set(job.renderBuild, loading);
  }
  const build = await loading;
  const paths = publishedPagePaths(job.published);
  const entry = build.entry.module as unknown as RenderEntry;
  // Rendered as the prerender renders: every path named as prerendered, so its loaders run.
  const handler = entry.createRequestHandler({ ...build, prerender: paths }, 'production');
  const files: RenderedFile[] = [];

  const add = (rel: string, text: string, scriptHashes?: string[]) => {
    const body = Buffer.from(text, 'utf8');
    const copies = COMPRESSIBLE.test(rel) && body.length > MIN_COMPRESSED ? compressBody(body) : undefined;
    files.push({ rel, body, br: copies?.br, gz: copies?.gz, scriptHashes });
  };
  const context = () => entry.publishedLoadContext(job.published) as Parameters<typeof handler>[1];

  for (const path of paths) {
    // React Router's name for a page's data: `/about.data`, and `/_.data` for the home page.
    const dataPath = path === '/' ? '/_.data' : `${path}.data`;
    const dataResponse = await handler(new Request(`http://localhost${dataPath}`), context());
    const data = await dataResponse.text();
    if (dataResponse.status !== 200) throw new Error(`${dataPath} answered ${dataResponse.status}`);
    add(dataPath, data);
    const htmlResponse = await handler(
      new Request(`http://localhost${path}`, { headers: { 'X-React-Router-Prerender-Data': encodeURI(data) } }),
      context(),
    );
    const html = await htmlResponse.text();
    if (htmlResponse.status !== 200) throw new Error(`${path} answered ${htmlResponse.status}`);
    const page = finishPage(html);
    add(`${path === '/' ? '' : path}/index.html`, page.html, page.scriptHashes);
  }
  add('/feed.xml', atomFeed(job.publicUrl, job.published.articles));
  add(
    '/sitemap.xml',
    sitemapXml(job.publicUrl, job.published.articles, job.published.masterclasses, job.published.newsletter),
  );
  if (job.published.newsletter) add(NEWSLETTER_FEED_PATH, newsletterFeed(job.publicUrl, job.published.newsletter));
  return files;
}

// A child process of the server (decision 049): each job rendered in turn, answered over the IPC
// channel; ended by the server, or on its own once the server is gone.
serveJobs(render);
