/**
 * The one look of every e-mail: the site's colours (src/app/app.css: brand #b9470b, ink
 * #0b1f3a), a header with the brand, a white card, a footer with the disclaimer. Templates
 * describe content as blocks; this renders them as an HTML part and a plain-text part, and
 * escapes every value on the way (nothing a visitor typed is ever markup).
 */
import { site } from '~/content/site';

export const BRAND = '#b9470b';
export const INK = '#0b1f3a';
export const INK_700 = '#364559';
export const INK_100 = '#e9eef5';
export const INK_50 = '#f6f8fb';
const FONT = "-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

export type EmailBlock =
  | { type: 'paragraph'; text: string }
  /** Label/value rows, e.g. the fields of a submission. Values keep their line breaks. */
  | { type: 'fields'; rows: readonly (readonly [label: string, value: string])[] }
  | { type: 'button'; label: string; url: string }
  /** A quoted free-text message from a visitor. */
  | { type: 'quote'; text: string }
  | { type: 'small'; text: string };

export type EmailContent = {
  /** Shown by mail clients next to the subject; plain text. */
  preheader: string;
  heading: string;
  blocks: readonly EmailBlock[];
  /** Extra footer lines, e.g. why the reader got this and how to unsubscribe. */
  footer?: readonly EmailBlock[];
};

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** Escaped text whose line breaks become <br>. */
function htmlText(value: string): string {
  return escapeHtml(value).replace(/\r\n|\r|\n/g, '<br>');
}

/** Only http(s) links are ever put in an href. */
function safeUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '#';
}

export function blockHtml(block: EmailBlock): string {
  switch (block.type) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;font-size:16px;line-height:24px;color:${INK};">${htmlText(block.text)}</p>`;
    case 'small':
      return `<p style="margin:0 0 12px;font-size:13px;line-height:20px;color:${INK_700};">${htmlText(block.text)}</p>`;
    case 'quote':
      return `<div style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${BRAND};background:${INK_50};font-size:15px;line-height:22px;color:${INK};">${htmlText(block.text)}</div>`;
    case 'button':
      return `<p style="margin:8px 0 24px;"><a href="${escapeHtml(safeUrl(block.url))}" style="display:inline-block;padding:12px 22px;border-radius:8px;background:${BRAND};color:#ffffff;font-weight:600;font-size:16px;text-decoration:none;">${escapeHtml(block.label)}</a></p>`;
    case 'fields':
      return (
        `<table role="presentation" cellpadding="0" cellspacing="0" width="100%" style="margin:0 0 16px;border-collapse:collapse;">` +
        block.rows
          .map(
            ([label, value]) =>
              `<tr><td style="padding:8px 12px 8px 0;border-bottom:1px solid ${INK_100};font-size:14px;color:${INK_700};vertical-align:top;white-space:nowrap;">${escapeHtml(label)}</td>` +
              `<td style="padding:8px 0;border-bottom:1px solid ${INK_100};font-size:15px;color:${INK};vertical-align:top;">${htmlText(value)}</td></tr>`,
          )
          .join('') +
        `</table>`
      );
  }
}

export function blockText(block: EmailBlock): string {
  switch (block.type) {
    case 'paragraph':
    case 'small':
      return block.text;
    case 'quote':
      return block.text
        .split(/\r\n|\r|\n/)
        .map((line) => `> ${line}`)
        .join('\n');
    case 'button':
      return `${block.label}: ${block.url}`;
    case 'fields':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
  }
}

/**
 * The page around an e-mail's content, shared by every e-mail the site sends: the hidden
 * preheader, the header with the brand, the white card opened by the heading, and the footer.
 * `heading` and `preheader` are plain text and escaped here; `body` and `footer` are HTML that
 * the caller has already escaped.
 */
export function emailFrame(parts: {
  heading: string;
  preheader: string;
  body: string;
  footer: string;
}): string {
  return (
    `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="color-scheme" content="light"><title>${escapeHtml(parts.heading)}</title></head>` +
    `<body style="margin:0;padding:0;background:${INK_50};font-family:${FONT};">` +
    `<div style="display:none;max-height:0;overflow:hidden;">${escapeHtml(parts.preheader)}</div>` +
    `<table role="presentation" cellpadding="0" cellspacing="0" width="100%" style="background:${INK_50};"><tr><td align="center" style="padding:24px 12px;">` +
    `<table role="presentation" cellpadding="0" cellspacing="0" width="100%" style="max-width:600px;">` +
    `<tr><td style="background:${INK};border-radius:12px 12px 0 0;padding:20px 28px;">` +
    `<span style="font-size:20px;font-weight:700;color:#ffffff;letter-spacing:0.2px;">${escapeHtml(site.brand)}</span>` +
    `<span style="display:block;height:3px;width:48px;margin-top:10px;background:${BRAND};"></span></td></tr>` +
    `<tr><td style="background:#ffffff;padding:28px;border:1px solid ${INK_100};border-top:0;">` +
    `<h1 style="margin:0 0 20px;font-size:22px;line-height:30px;color:${INK};">${escapeHtml(parts.heading)}</h1>` +
    parts.body +
    `</td></tr>` +
    `<tr><td style="padding:20px 28px;">${parts.footer}</td></tr>` +
    `</table></td></tr></table></body></html>`
  );
}

/** Who sends the e-mails, as their footer names them: the business's name and postal address. */
export type MailBusiness = { readonly name: string; readonly address: readonly string[] };

/**
 * Renders an e-mail. `business`: the business's own details as the owner set them (read at send
 * time); none, and the footer names no postal address (never a stand-in).
 */
export function renderEmail(
  content: EmailContent,
  business?: MailBusiness | null,
): { html: string; text: string } {
  const footer = [
    ...(content.footer ?? []),
    { type: 'small', text: site.disclaimer } as const,
    ...(business ? [{ type: 'small', text: [business.name, ...business.address].join(', ') } as const] : []),
  ];
  const html = emailFrame({
    heading: content.heading,
    preheader: content.preheader,
    body: content.blocks.map(blockHtml).join(''),
    footer:
      footer.map(blockHtml).join('') +
      `<p style="margin:0;font-size:13px;color:${INK_700};">${escapeHtml(site.brand)} · ${escapeHtml(site.tagline)}</p>`,
  });
  const text = [
    site.brand.toUpperCase(),
    '',
    content.heading,
    '',
    content.blocks.map(blockText).join('\n\n'),
    '',
    '--',
    footer.map(blockText).join('\n\n'),
    '',
  ].join('\n');
  return { html, text };
}
