/**
 * Files generated from content at build time and written into the client build:
 * sitemap.xml, robots.txt and the masterclass calendar file. Features add their own generators to `generators`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PUBLIC_PATHS } from '../src/content/routes';
import { masterclass } from '../src/content/resources';
import { site } from '../src/content/site';
import { GUIDE_PDF_FILE, renderGuidePdf } from './guide-pdf';
import { buildPublishedEventIcs } from './ics';
import { masterclassEvent } from './masterclass-event';

const clientDir = process.argv[2];
if (!clientDir) throw new Error('usage: build-assets.ts <client dir>');
const publicUrl = (process.env.VITE_PUBLIC_URL ?? 'http://localhost:3000').replace(/\/+$/, '');

type Generated = { path: string; body: string | Uint8Array };
type Generator = () => Promise<Generated[]> | Generated[];

const sitemap: Generator = () => [
  {
    path: 'sitemap.xml',
    body:
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      PUBLIC_PATHS.map((p) => `  <url><loc>${publicUrl}${p}</loc></url>`).join('\n') +
      '\n</urlset>\n',
  },
  { path: 'robots.txt', body: `User-agent: *\nAllow: /\n\nSitemap: ${publicUrl}/sitemap.xml\n` },
];

/** The masterclass's '+ Calendar' file, made from the same content as the card. */
const calendar: Generator = () => [
  {
    path: masterclass.calendar.path.replace(/^\//, ''),
    body: buildPublishedEventIcs(masterclassEvent(publicUrl), `-//${site.brand}//Masterclass//EN`),
  },
];

const guide: Generator = async () => [
  { path: GUIDE_PDF_FILE, body: await renderGuidePdf({ brand: site.brand, siteUrl: publicUrl }) },
];

const generators: Generator[] = [sitemap, calendar, guide];

for (const generate of generators) {
  for (const file of await generate()) {
    const target = join(clientDir, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.body);
  }
}
