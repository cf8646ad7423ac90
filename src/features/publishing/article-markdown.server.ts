/**
 * An article's Markdown, as the owner types it in the console, rendered to the HTML the public
 * page and the console's preview show (decision 047). The text is the owner's, but it is treated
 * as text that could carry markup by mistake (a pasted snippet, a copied page), and the page it
 * lands on is the public site's:
 *
 * - raw HTML is shown as the text it is (escaped), never passed through as markup;
 * - a link leads only to an http(s) address, a mailto, or a path of this site (`/...`, never
 *   `//host`); any other (javascript:, data:, vbscript:) is rendered as its words alone; a link
 *   to another site gets `rel="noopener noreferrer"`;
 * - an image loads only from this site (a path, as `/og-image.png`): the public pages' CSP allows
 *   no other, and another site's image would tell that site who reads the article; an https image
 *   elsewhere becomes a link to it, named by its alternative text; any other is its text alone;
 * - a `#` heading becomes an h2: the page's own h1 is the article's title;
 * - a task list's boxes are characters, not form controls.
 *
 * Words are counted as src/content/articles.server.ts counts them for the Markdown files, so an
 * imported article reads the same number of minutes as before.
 */
import { Marked } from 'marked';

/** A link may lead to a web page, open a new message, or a page of this site. */
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;
/** A path of this site: one slash, then anything but a second slash or a backslash (`//host`, `/\host`). */
const SITE_PATH = /^\/(?![/\\])/;
const EXTERNAL = /^https?:\/\//i;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Whether `href` may stand in a link's href. */
export function isSafeLink(href: string): boolean {
  return SAFE_LINK.test(href) || SITE_PATH.test(href);
}

const markdown = new Marked({ gfm: true, async: false });
markdown.use({
  renderer: {
    heading({ tokens, depth }) {
      const level = Math.max(2, depth);
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
    // Raw HTML is shown as the text it is.
    html({ text, block }) {
      const shown = escapeHtml(block ? text.trim() : text);
      return block ? `<p>${shown.replace(/\r\n|\r|\n/g, '<br>')}</p>\n` : shown;
    },
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      if (!isSafeLink(href)) return text;
      const attrs = [
        `href="${escapeHtml(href)}"`,
        title ? `title="${escapeHtml(title)}"` : '',
        EXTERNAL.test(href) ? 'rel="noopener noreferrer"' : '',
      ].filter(Boolean);
      return `<a ${attrs.join(' ')}>${text}</a>`;
    },
    image({ href, title, text }) {
      const titled = title ? ` title="${escapeHtml(title)}"` : '';
      if (SITE_PATH.test(href)) return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}"${titled} loading="lazy">`;
      if (/^https:\/\//i.test(href))
        return `<a href="${escapeHtml(href)}"${titled} rel="noopener noreferrer">${escapeHtml(text || href)}</a>`;
      return escapeHtml(text);
    },
    // A form control in an article does nothing (and has no label): the box is a character.
    checkbox({ checked }) {
      return checked ? '☑ ' : '☐ ';
    },
  },
});

/**
 * Words of running text: the Markdown without its markup (as `countWords` of
 * src/content/articles.server.ts).
 */
export function countWords(body: string): number {
  const text = body
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#*_>`|-]+/g, ' ')
    .trim();
  return text === '' ? 0 : text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/** At 200 words a minute, rounded up; at least one. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.ceil(words / 200));
}

/** The article's Markdown as safe HTML, and how many words it has. */
export function renderArticleMarkdown(source: string): { html: string; words: number } {
  return { html: markdown.parse(source) as string, words: countWords(source) };
}
