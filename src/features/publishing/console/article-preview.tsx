/**
 * The live preview: the article as its page on the site shows it (title, date, reading time,
 * summary and text), updated as the owner types. The text is rendered by the server, the same
 * renderer as the published page's (articleRoutes.preview: raw HTML shown as text, links and
 * images filtered), asked for once the typing pauses; the answer to an older request never
 * replaces a newer one.
 *
 * It is shown in the site's own article style: the console's page loads the site's stylesheet
 * (src/app/app.css, linked by the root for every page), whose `.article-body` rules style the
 * public article's text, so the preview's text has exactly those rules and no copy of them. A link
 * in the preview opens in a new tab, so following one never leaves the editor.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { articlesCopy as copy } from '~/content/publishing-console';
import { formatLongDate, isIsoDate } from '~/lib/uk-dates';
import { Section } from '~/components/console/page';
import { articleRoutes, type ArticlePreview } from '../articles-console-contract';
import { postTo, type ArticleValues } from './article-api';

/** How long the typing must pause before the preview is asked for. */
const PAUSE_MS = 400;

type Rendered = { body: string; preview: ArticlePreview };

/** The server's rendering of `body`, asked for when the typing pauses (at once the first time). */
function useRenderedBody(body: string) {
  const [rendered, setRendered] = useState<Rendered | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const asked = useRef(0);
  const first = useRef(true);
  const text = body.trim();
  useEffect(() => {
    const ask = ++asked.current;
    if (text === '') return;
    const timer = window.setTimeout(
      () => {
        void postTo(articleRoutes.preview, {}, { body: text }).then((result) => {
          // A newer request has gone since: its answer is the one to show.
          if (asked.current !== ask) return;
          if (result.ok) {
            setRendered({ body: text, preview: result.data });
            setFailed(null);
          } else if (result.status !== 401) {
            setFailed(result.error);
          }
        });
      },
      first.current ? 0 : PAUSE_MS,
    );
    first.current = false;
    return () => window.clearTimeout(timer);
  }, [text]);
  // Nothing written, nothing to show (and an answer still on its way is dropped above).
  return text === '' ? { rendered: null, failed: null } : { rendered, failed };
}

/**
 * Rendered article text (the server's safe HTML) in the site's `.article-body` style; its links
 * open in a new tab.
 */
export function ArticleBody({ html, className = '' }: { html: string; className?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    for (const link of box.current?.querySelectorAll('a') ?? []) {
      link.target = '_blank';
      link.rel = 'noopener noreferrer';
    }
  }, [html]);
  return (
    <div
      ref={box}
      className={`article-body ${className}`}
      // The server's rendering of the owner's Markdown: raw HTML escaped, links and images
      // filtered (article-markdown.server.ts); the console's CSP runs no inline script anyway.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

const dayOf = (date: string) => (isIsoDate(date.trim()) ? formatLongDate(date.trim()) : date);

/** The preview section, for the values as typed. */
export function LivePreview({ id, values }: { id: string; values: ArticleValues }) {
  const { rendered, failed } = useRenderedBody(values.body);
  return (
    <Section id={id} heading={copy.previewHeading} className="min-w-0">
      <p className="mt-1 text-sm text-ink-700">{copy.previewIntro}</p>
      <div
        role="region"
        aria-label={copy.previewLabel}
        // Focusable so the keyboard can scroll it sideways (a wide table or a long line of code;
        // axe: scrollable-region-focusable): the console's page itself never scrolls sideways.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        className="mt-3 max-w-full overflow-x-auto rounded-[var(--radius-card)] border border-ink-200 bg-white px-5 py-6 sm:px-8"
      >
        <p className="text-3xl font-bold tracking-tight wrap-anywhere text-ink-900">
          {values.title.trim() || copy.articleFallback}
        </p>
        {values.summary.trim() ? (
          <p className="mt-4 text-lg leading-relaxed wrap-anywhere text-ink-700">{values.summary.trim()}</p>
        ) : null}
        <p className="mt-4 text-sm text-ink-600">
          {copy.previewMeta(dayOf(values.date), rendered?.preview.readingMinutes ?? 1)}
        </p>
        {failed ? <p className="mt-6 text-danger-700">{`${copy.previewFailed} ${failed}`}</p> : null}
        {rendered ? (
          <ArticleBody html={rendered.preview.html} className="mt-8 wrap-anywhere" />
        ) : (
          <p className="mt-8 text-ink-600">{copy.previewEmpty}</p>
        )}
      </div>
      {rendered ? (
        <p className="mt-2 text-sm text-ink-600">{copy.previewWords(rendered.preview.words)}</p>
      ) : null}
    </Section>
  );
}
