/** The Atom feeds carry the owner's plain text as text, never as markup (issue: a title with `<script>`). */
import { describe, expect, test } from 'vitest';
import type { ArticleDoc } from '~/content/articles';
import type { PublishedIssue } from '~/content/published';
import { atomFeed, newsletterFeed } from './site-files';

/** What a feed reader shows of a `type="html"` text construct: its CDATA or text, read as HTML's text. */
function shown(xml: string, element: 'title' | 'summary', index = 0): string {
  const found = [
    ...xml.matchAll(
      new RegExp(
        `<${element} type="html">(?:<!\\[CDATA\\[([\\s\\S]*?)\\]\\]>|([\\s\\S]*?))</${element}>`,
        'g',
      ),
    ),
  ][index];
  if (!found) throw new Error(`no ${element}`);
  const raw = found[1] ?? (found[2] ?? '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  // The reader parses it as HTML: markup in it would be elements; escaped, it is text again.
  expect(raw).not.toMatch(/<[a-z/]/i);
  return raw.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

const hostile = 'Bitcoin <script>alert(1)</script> & "tax" <b>2027</b>';

describe('the Atom feeds', () => {
  test("an article's title and summary are text, whatever characters they hold", () => {
    const article = {
      slug: 'a',
      title: hostile,
      summary: `Summary ${hostile}`,
      html: '<p>Body</p>',
      date: '2026-12-01',
    } as unknown as ArticleDoc;
    const xml = atomFeed('https://www.sterling.test', [article]);
    expect(shown(xml, 'title')).toBe(hostile);
    expect(shown(xml, 'summary', 0)).toBe(`Summary ${hostile}`);
    // The article's own HTML stays HTML.
    expect(xml).toContain('<p>Body</p>');
  });

  test("a newsletter issue's subject and preheader are text too", () => {
    const issue = {
      slug: 'i',
      subject: hostile,
      preheader: `Pre ${hostile}`,
      html: '<p>Issue</p>',
      date: '2026-12-01',
    } as unknown as PublishedIssue;
    const xml = newsletterFeed('https://www.sterling.test', [issue]);
    expect(shown(xml, 'title')).toBe(hostile);
    expect(shown(xml, 'summary', 0)).toBe(`Pre ${hostile}`);
  });
});
