import { site } from '~/content/site';
import { publicEnv } from './env';

export type PageSeo = {
  /** Path of the page, e.g. `/about`. Canonical URL and og:url are built from it. */
  path: string;
  title: string;
  description: string;
  /** Extra structured data, one JSON-LD object per entry. */
  jsonLd?: readonly object[];
  /** Pages that must not be indexed (404, e-mail landing pages). */
  noindex?: boolean;
  /** The image a shared link shows (an article's cover): its path, size and alt text; the site's own otherwise. */
  image?: { path: string; width: number; height: number; alt: string };
};

export function absoluteUrl(path: string): string {
  return `${publicEnv.publicUrl}${path === '/' ? '/' : path}`;
}

/** The meta descriptors every route returns from its `meta` export. */
export function pageMeta(seo: PageSeo) {
  const title = seo.path === '/' ? seo.title : `${seo.title} | ${site.brand}`;
  const url = absoluteUrl(seo.path);
  return [
    { title },
    { name: 'description', content: seo.description },
    ...(seo.noindex
      ? [{ name: 'robots', content: 'noindex' }]
      : [{ tagName: 'link', rel: 'canonical', href: url }]),
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: site.brand },
    { property: 'og:title', content: title },
    { property: 'og:description', content: seo.description },
    { property: 'og:url', content: url },
    ...(seo.image
      ? [
          { property: 'og:image', content: absoluteUrl(seo.image.path) },
          { property: 'og:image:width', content: String(seo.image.width) },
          { property: 'og:image:height', content: String(seo.image.height) },
          { property: 'og:image:alt', content: seo.image.alt },
        ]
      : [{ property: 'og:image', content: absoluteUrl('/og-image.png') }]),
    { property: 'og:locale', content: 'en_GB' },
    { name: 'twitter:card', content: 'summary_large_image' },
    ...(seo.jsonLd ?? []).map((data) => ({ 'script:ld+json': data })),
  ];
}
