/**
 * A newsletter issue as its e-mail: the owner's subject, preheader and Markdown body rendered
 * into an HTML part (the site's e-mail look, src/server/kit/mail/layout.ts) and a plain-text
 * part. It is rendered once per issue; the one thing that differs between readers, their
 * unsubscribe link, stands in both parts as UNSUBSCRIBE_MARK and is filled in per recipient by
 * `fillUnsubscribe`, a plain string replacement that costs nothing at campaign speed.
 *
 * The body is the owner's, but it is still treated as text that could carry markup by mistake
 * (a pasted snippet, a copied page): raw HTML is shown as text, links go only to http(s) and
 * mailto addresses, and images load only from the site itself, over https (another host's is a
 * link to it, so that host never learns who opened the e-mail). Nothing in the e-mail tracks its reader:
 * no pixel, no per-person link but the unsubscribe one.
 */
import type juice from 'juice';
import { Marked, type MarkedToken, type Token, type Tokens } from 'marked';
import { newsletter } from '~/content/resources';
import { site } from '~/content/site';
import {
  blockHtml,
  blockText,
  BRAND,
  emailFrame,
  escapeHtml,
  INK,
  INK_100,
  INK_50,
  INK_700,
} from '~/server/kit/mail/layout';

/** Stands for the reader's unsubscribe URL until `fillUnsubscribe` puts theirs in. */
export const UNSUBSCRIBE_MARK = '%%unsubscribe-url%%';

export type IssueText = { subject: string; preheader: string; body: string };

export type IssueFooter = {
  /** The sender's postal address lines (a setting). */
  postalAddress: readonly string[];
  /** The site's public URL, e.g. https://example.com (for the reason line / site link). */
  siteUrl: string;
};

export type RenderedIssue = { html: string; text: string };

/** A link may lead to a web page or open a new message; any other scheme (javascript:, data:) may not. */
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;
/** Images load only over https: a plain-http image is flagged as insecure by mail clients. */
const SAFE_IMAGE = /^https:\/\//i;
/** A path of this site: one slash, then anything but a second slash or a backslash. */
const SITE_PATH = /^\/(?![/\\])/;

/**
 * The site's own origin while a body is rendered (`bodyHtml`; marked renders synchronously): an
 * image loads in the e-mail only from there, as on the site's pages, so no other host learns who
 * opened it. An https image elsewhere becomes a link to it, named by its alternative text.
 */
let imageOrigin: string | undefined;

function originOf(siteUrl: string): string | undefined {
  try {
    const url = new URL(siteUrl);
    return url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The body's look, inlined into each element by juice: many mail clients (Gmail's apps, Outlook)
 * drop a <style> block, so only a style attribute is sure to reach the reader. It matches the
 * paragraphs, quotes and tables of the site's other e-mails, and keeps wide content (images,
 * code, long links) inside a phone's width.
 */
const BODY_CSS = `
p { margin: 0 0 16px; font-size: 16px; line-height: 24px; color: ${INK}; }
h2 { margin: 28px 0 12px; font-size: 20px; line-height: 28px; font-weight: 700; color: ${INK}; }
h3 { margin: 24px 0 8px; font-size: 17px; line-height: 24px; font-weight: 700; color: ${INK}; }
ul, ol { margin: 0 0 16px; padding: 0 0 0 24px; font-size: 16px; line-height: 24px; color: ${INK}; }
li { margin: 0 0 6px; }
li p { margin: 0 0 6px; }
blockquote { margin: 0 0 16px; padding: 12px 16px 0; border-left: 4px solid ${BRAND}; background: ${INK_50}; color: ${INK}; }
a { color: ${BRAND}; text-decoration: underline; overflow-wrap: anywhere; }
img { display: block; max-width: 100%; height: auto; margin: 0 0 16px; border: 0; }
hr { margin: 24px 0; border: 0; border-top: 1px solid ${INK_100}; }
code { font-family: Menlo, Consolas, 'Courier New', monospace; font-size: 14px; padding: 1px 4px; border-radius: 4px; background: ${INK_50}; }
pre { margin: 0 0 16px; padding: 12px 16px; border-radius: 8px; background: ${INK_50}; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 14px; line-height: 20px; color: ${INK}; }
pre code { padding: 0; background: transparent; }
table { width: 100%; margin: 0 0 16px; border-collapse: collapse; }
th, td { padding: 8px 12px 8px 0; border-bottom: 1px solid ${INK_100}; font-size: 15px; line-height: 22px; text-align: left; vertical-align: top; color: ${INK}; }
th { font-weight: 600; color: ${INK_700}; }
`;

const markdown = new Marked({ gfm: true, async: false });
markdown.use({
  renderer: {
    // The subject is the e-mail's one <h1>, so the body's headings start below it.
    heading({ tokens, depth }) {
      const level = depth <= 2 ? 2 : 3;
      return `<h${level}>${this.parser.parseInline(tokens)}</h${level}>\n`;
    },
    // Raw HTML is shown as the text it is, never passed through as markup.
    html({ text, block }) {
      const shown = escapeHtml(block ? text.trim() : text);
      return block ? `<p>${shown.replace(/\r\n|\r|\n/g, '<br>')}</p>\n` : shown;
    },
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      if (!SAFE_LINK.test(href)) return text;
      const titled = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(href)}"${titled}>${text}</a>`;
    },
    image({ href, title, text }) {
      const titled = title ? ` title="${escapeHtml(title)}"` : '';
      const own = imageOrigin && SITE_PATH.test(href) ? `${imageOrigin}${href}` : href;
      if (imageOrigin && SAFE_IMAGE.test(own) && originOf(own) === imageOrigin)
        return `<img src="${escapeHtml(own)}" alt="${escapeHtml(text)}"${titled}>`;
      if (SAFE_IMAGE.test(href))
        return `<a href="${escapeHtml(href)}"${titled}>${escapeHtml(text || href)}</a>`;
      return escapeHtml(text);
    },
    // A form control in an e-mail does nothing; a task list reads as ticked or not.
    checkbox({ checked }) {
      return checked ? '[x] ' : '[ ] ';
    },
  },
});

let inliner: Promise<typeof juice> | undefined;

/**
 * juice, loaded when the first issue is rendered rather than when the server starts: with the
 * HTML parser it brings, it is the heaviest package the server imports, and only the newsletter
 * uses it (decision 051).
 */
const loadJuice = () => (inliner ??= import('juice').then((module) => module.default));

/** The body as HTML, with the stylesheet inlined into each element. */
async function bodyHtml(body: string, siteUrl: string): Promise<string> {
  const inline = await loadJuice();
  imageOrigin = originOf(siteUrl);
  let html: string;
  try {
    html = markdown.parse(body) as string;
  } finally {
    imageOrigin = undefined;
  }
  return inline.inlineContent(html, BODY_CSS, { applyWidthAttributes: false });
}

// --- The plain-text part ------------------------------------------------------------------------
// It is made from marked's tokens of the same Markdown rather than from the rendered HTML: the
// words come straight from what the owner wrote, links keep their address beside their text, and
// no second parser (nor another library) has to guess the structure back out of markup.

/** The few named references an owner might type; numeric ones marked has already resolved. */
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  pound: '£',
  euro: '€',
  copy: '©',
  hellip: '…',
  mdash: '—',
  ndash: '–',
};

function decodeEntities(text: string): string {
  return text.replace(/&([a-z]+);/gi, (whole, name: string) => ENTITIES[name.toLowerCase()] ?? whole);
}

/** Raw HTML keeps only its words in the text part. */
function stripTags(text: string): string {
  return decodeEntities(text.replace(/<[^>]*>/g, ''));
}

function inlineText(tokens: readonly Token[] | undefined): string {
  return (tokens ?? []).map((token) => inlineTokenText(token as MarkedToken)).join('');
}

function inlineTokenText(token: MarkedToken): string {
  switch (token.type) {
    case 'link': {
      const text = inlineText(token.tokens);
      if (!SAFE_LINK.test(token.href)) return text;
      const address = token.href.replace(/^mailto:/i, '');
      return text === token.href || text === address ? text : `${text} (${token.href})`;
    }
    case 'image':
      return token.text ? `[${token.text}]` : '';
    case 'br':
      return '\n';
    case 'html':
      return stripTags(token.text);
    case 'checkbox':
      return token.checked ? '[x] ' : '[ ] ';
    case 'codespan':
    case 'escape':
      return token.text;
    case 'text':
      return token.tokens ? inlineText(token.tokens) : decodeEntities(token.text);
    case 'strong':
    case 'em':
    case 'del':
      return inlineText(token.tokens);
    default:
      return '';
  }
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 || line === '' ? line : prefix + line))
    .join('\n');
}

function listText(list: Tokens.List): string {
  const start = typeof list.start === 'number' ? list.start : 1;
  return list.items
    .map((item, i) => {
      const marker = list.ordered ? `${start + i}. ` : '- ';
      const task = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
      const content = blocksText(
        item.tokens.filter((token) => token.type !== 'checkbox'),
        item.loose ? '\n\n' : '\n',
      );
      return marker + task + indent(content, ' '.repeat(marker.length));
    })
    .join(list.loose ? '\n\n' : '\n');
}

function blockTokenText(token: MarkedToken): string {
  switch (token.type) {
    case 'heading': {
      const text = inlineText(token.tokens);
      return token.depth <= 2 ? `${text}\n${'-'.repeat([...text].length)}` : text;
    }
    case 'paragraph':
      return inlineText(token.tokens);
    case 'text':
      return token.tokens ? inlineText(token.tokens) : decodeEntities(token.text);
    case 'list':
      return listText(token);
    case 'blockquote':
      return blocksText(token.tokens)
        .split('\n')
        .map((line) => (line ? `> ${line}` : '>'))
        .join('\n');
    case 'code':
      return token.text
        .split('\n')
        .map((line) => `    ${line}`)
        .join('\n');
    case 'hr':
      return '----------';
    case 'html':
      return stripTags(token.text).trim();
    case 'table': {
      const row = (cells: readonly Tokens.TableCell[]) =>
        cells.map((cell) => inlineText(cell.tokens)).join(' | ');
      return [row(token.header), ...token.rows.map(row)].join('\n');
    }
    default:
      return '';
  }
}

function blocksText(tokens: readonly Token[], separator = '\n\n'): string {
  return tokens
    .map((token) => blockTokenText(token as MarkedToken))
    .filter((text) => text !== '')
    .join(separator);
}

// --- The footer ---------------------------------------------------------------------------------

function reason(): string {
  return `You receive this because you subscribed to ${newsletter.title} from ${site.brand} and confirmed your address.`;
}

/** The site's address as a reader would type it, or nothing if the setting is not a web address. */
function siteHost(siteUrl: string): string | undefined {
  if (!/^https?:\/\//i.test(siteUrl)) return undefined;
  try {
    return new URL(siteUrl).host;
  } catch {
    return undefined;
  }
}

const SMALL = `margin:0 0 12px;font-size:13px;line-height:20px;color:${INK_700};`;
const FOOTER_LINK = `color:${BRAND};text-decoration:underline;`;

function footerHtml(footer: IssueFooter): string {
  const host = siteHost(footer.siteUrl);
  const identity =
    escapeHtml(site.brand) +
    (host ? ` · <a href="${escapeHtml(footer.siteUrl)}" style="${FOOTER_LINK}">${escapeHtml(host)}</a>` : '');
  const address = footer.postalAddress.map((line) => `<br>${escapeHtml(line)}`).join('');
  return (
    blockHtml({ type: 'small', text: reason() }) +
    `<p style="${SMALL}"><a href="${UNSUBSCRIBE_MARK}" style="${FOOTER_LINK}">Unsubscribe</a></p>` +
    `<p style="${SMALL}">${identity}${address}</p>` +
    blockHtml({ type: 'small', text: site.disclaimer })
  );
}

function footerText(footer: IssueFooter): string {
  const host = siteHost(footer.siteUrl);
  return [
    blockText({ type: 'small', text: reason() }),
    `Unsubscribe: ${UNSUBSCRIBE_MARK}`,
    [host ? `${site.brand} · ${footer.siteUrl}` : site.brand, ...footer.postalAddress].join('\n'),
    blockText({ type: 'small', text: site.disclaimer }),
  ].join('\n\n');
}

// --- The e-mail ---------------------------------------------------------------------------------

export async function renderIssueEmail(issue: IssueText, footer: IssueFooter): Promise<RenderedIssue> {
  const html = emailFrame({
    heading: issue.subject,
    preheader: issue.preheader,
    body: await bodyHtml(issue.body, footer.siteUrl),
    footer: footerHtml(footer),
  });
  const text = [
    site.brand.toUpperCase(),
    '',
    issue.subject,
    '',
    blocksText(markdown.lexer(issue.body)),
    '',
    '--',
    footerText(footer),
    '',
  ].join('\n');
  return { html, text };
}

/** Replaces the mark in a rendered part by the recipient's URL (escaped for HTML in the html part). */
export function fillUnsubscribe(rendered: RenderedIssue, url: string): RenderedIssue {
  const inHtml = escapeHtml(url);
  // A function as the replacement, so that a `$` in the URL is never read as a pattern.
  return {
    html: rendered.html.replaceAll(UNSUBSCRIBE_MARK, () => inHtml),
    text: rendered.text.replaceAll(UNSUBSCRIBE_MARK, () => url),
  };
}
