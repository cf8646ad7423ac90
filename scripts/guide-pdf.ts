/**
 * Builds the Wealth Building Guide PDF from scripts/guide-pdf-content.ts with pdfkit, in the
 * site's colours: navy ink #0b1f3a, brand orange #b9470b. A build-assets generator writes it
 * to guides/wealth-building-guide.pdf in the client build. Fixed metadata dates keep the file
 * identical from build to build (same ETag).
 */
import PDFDocument from 'pdfkit';
import { GUIDE_PDF_PATH } from '../src/features/guide/guide-file';
import { CONTENTS, GUIDE_EDITION, NOTICE, PAGES, type Block } from './guide-pdf-content';

const INK = '#0b1f3a';
const INK_700 = '#364559';
const INK_100 = '#e9eef5';
const INK_50 = '#f6f8fb';
const BRAND = '#b9470b';
const BRAND_50 = '#fff7ed';
const BRAND_500 = '#f7931a';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 56;
const CONTENT_WIDTH = PAGE.width - MARGIN * 2;
const BOTTOM = PAGE.height - 72;

/** Where the file goes in the client build: the path the form and the e-mails link to. */
export const GUIDE_PDF_FILE = GUIDE_PDF_PATH.slice(1);

type Doc = PDFKit.PDFDocument;

function ensureRoom(doc: Doc, height: number) {
  if (doc.y + height > BOTTOM)
    throw new Error(`guide-pdf: a page overflows near "${doc.y}"; shorten its text`);
}

function paragraph(doc: Doc, text: string) {
  doc.font('Helvetica').fontSize(10.5).fillColor(INK_700);
  ensureRoom(doc, doc.heightOfString(text, { width: CONTENT_WIDTH, lineGap: 3 }));
  doc.text(text, MARGIN, doc.y, { width: CONTENT_WIDTH, lineGap: 3 });
  doc.moveDown(0.8);
}

function subheading(doc: Doc, text: string) {
  ensureRoom(doc, 40);
  doc.moveDown(0.2);
  doc.font('Helvetica-Bold').fontSize(13).fillColor(INK).text(text, MARGIN, doc.y, { width: CONTENT_WIDTH });
  doc.moveDown(0.5);
}

function bullets(doc: Doc, items: string[]) {
  doc.font('Helvetica').fontSize(10.5);
  for (const item of items) {
    const h = doc.heightOfString(item, { width: CONTENT_WIDTH - 18, lineGap: 2.5 });
    ensureRoom(doc, h);
    const y = doc.y;
    doc
      .save()
      .rect(MARGIN + 2, y + 4, 5, 5)
      .fill(BRAND)
      .restore();
    doc.fillColor(INK_700).text(item, MARGIN + 18, y, { width: CONTENT_WIDTH - 18, lineGap: 2.5 });
    doc.moveDown(0.45);
  }
  doc.moveDown(0.4);
}

function callout(doc: Doc, title: string, text: string) {
  doc.font('Helvetica').fontSize(10.5);
  const textHeight = doc.heightOfString(text, { width: CONTENT_WIDTH - 36, lineGap: 2.5 });
  const height = textHeight + 44;
  ensureRoom(doc, height);
  const y = doc.y;
  doc.save().roundedRect(MARGIN, y, CONTENT_WIDTH, height, 8).fill(BRAND_50).restore();
  doc.save().rect(MARGIN, y, 4, height).fill(BRAND).restore();
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(BRAND)
    .text(title, MARGIN + 18, y + 14, { width: CONTENT_WIDTH - 36 });
  doc
    .font('Helvetica')
    .fontSize(10.5)
    .fillColor(INK)
    .text(text, MARGIN + 18, y + 32, { width: CONTENT_WIDTH - 36, lineGap: 2.5 });
  doc.y = y + height + 14;
}

function table(doc: Doc, columns: string[], rows: string[][], widths?: number[]) {
  const fractions = widths ?? columns.map(() => 1 / columns.length);
  const cols = fractions.map((f) => f * CONTENT_WIDTH);
  const pad = 7;
  const drawRow = (cells: string[], header: boolean, shade: boolean) => {
    doc.font(header ? 'Helvetica-Bold' : 'Helvetica').fontSize(header ? 9.5 : 10);
    const height =
      Math.max(...cells.map((c, i) => doc.heightOfString(c, { width: cols[i]! - pad * 2, lineGap: 1.5 }))) +
      pad * 2;
    ensureRoom(doc, height);
    const y = doc.y;
    if (header) doc.save().rect(MARGIN, y, CONTENT_WIDTH, height).fill(INK).restore();
    else if (shade) doc.save().rect(MARGIN, y, CONTENT_WIDTH, height).fill(INK_50).restore();
    let x = MARGIN;
    cells.forEach((cell, i) => {
      doc
        .fillColor(header ? '#ffffff' : i === 0 ? INK : INK_700)
        .text(cell, x + pad, y + pad, { width: cols[i]! - pad * 2, lineGap: 1.5 });
      x += cols[i]!;
    });
    if (!header)
      doc
        .save()
        .moveTo(MARGIN, y + height)
        .lineTo(MARGIN + CONTENT_WIDTH, y + height)
        .lineWidth(0.5)
        .stroke(INK_100)
        .restore();
    doc.y = y + height;
  };
  drawRow(columns, true, false);
  rows.forEach((row, i) => drawRow(row, false, i % 2 === 1));
  doc.moveDown(1);
}

function block(doc: Doc, b: Block) {
  switch (b.kind) {
    case 'p':
      return paragraph(doc, b.text);
    case 'h':
      return subheading(doc, b.text);
    case 'bullets':
      return bullets(doc, b.items);
    case 'callout':
      return callout(doc, b.title, b.text);
    case 'table':
      return table(doc, b.columns, b.rows, b.widths);
  }
}

function header(doc: Doc, eyebrow: string, title: string) {
  doc.save().rect(0, 0, PAGE.width, 8).fill(BRAND).restore();
  doc
    .font('Helvetica-Bold')
    .fontSize(9)
    .fillColor(BRAND)
    .text(eyebrow.toUpperCase(), MARGIN, 48, { characterSpacing: 1.2 });
  doc.font('Helvetica-Bold').fontSize(24).fillColor(INK).text(title, MARGIN, 64, { width: CONTENT_WIDTH });
  const y = doc.y + 8;
  doc.save().rect(MARGIN, y, 48, 3).fill(BRAND).restore();
  doc.y = y + 22;
}

function footers(doc: Doc, brand: string) {
  const range = doc.bufferedPageRange();
  for (let i = 1; i < range.count; i += 1) {
    doc.switchToPage(i);
    const y = PAGE.height - 44;
    doc
      .save()
      .moveTo(MARGIN, y - 8)
      .lineTo(PAGE.width - MARGIN, y - 8)
      .lineWidth(0.5)
      .stroke(INK_100)
      .restore();
    doc.font('Helvetica').fontSize(8.5).fillColor(INK_700);
    doc.text(`${brand} · Wealth Building Guide · Education, not financial advice`, MARGIN, y, {
      width: CONTENT_WIDTH - 60,
      lineBreak: false,
    });
    doc.text(String(i + 1), PAGE.width - MARGIN - 40, y, { width: 40, align: 'right', lineBreak: false });
  }
}

function cover(doc: Doc, brand: string, siteUrl: string) {
  doc.save().rect(0, 0, PAGE.width, PAGE.height).fill(INK).restore();
  doc
    .save()
    .rect(0, PAGE.height - 16, PAGE.width, 16)
    .fill(BRAND)
    .restore();
  // A quiet motif: concentric arcs in the brand colours.
  for (let r = 60; r <= 300; r += 40) {
    doc
      .save()
      .circle(PAGE.width - 40, 180, r)
      .lineWidth(1)
      .strokeOpacity(0.18)
      .stroke(BRAND_500)
      .restore();
  }
  doc.font('Helvetica-Bold').fontSize(14).fillColor('#ffffff').text(brand, MARGIN, 64);
  doc.save().rect(MARGIN, 86, 40, 3).fill(BRAND).restore();
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(BRAND_500)
    .text('FREE GUIDE FOR UK PROFESSIONALS', MARGIN, 300, { characterSpacing: 1.5 });
  doc
    .font('Helvetica-Bold')
    .fontSize(40)
    .fillColor('#ffffff')
    .text('The Bitcoin Wealth Building Guide', MARGIN, 324, { width: CONTENT_WIDTH - 40, lineGap: 2 });
  doc.moveDown(0.6);
  doc
    .font('Helvetica')
    .fontSize(15)
    .fillColor('#d3dbe6')
    .text(
      'Foundations first, a measured allocation, safe custody and the UK tax basics: for professionals earning £100k and more.',
      MARGIN,
      doc.y,
      { width: CONTENT_WIDTH - 60, lineGap: 3 },
    );
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#aab7c8')
    .text(`${GUIDE_EDITION} · ${siteUrl}`, MARGIN, PAGE.height - 110);
  doc
    .font('Helvetica-Bold')
    .fontSize(10)
    .fillColor('#ffffff')
    .text('Education, not financial advice.', MARGIN, PAGE.height - 92);
}

function contents(doc: Doc) {
  doc.addPage();
  header(doc, 'Inside this guide', 'Contents');
  for (const [n, title] of CONTENTS) {
    const y = doc.y;
    doc
      .font('Helvetica-Bold')
      .fontSize(12)
      .fillColor(BRAND)
      .text(n.padStart(2, '0'), MARGIN, y, { width: 30 });
    doc
      .font('Helvetica')
      .fontSize(12)
      .fillColor(INK)
      .text(title, MARGIN + 36, y, { width: CONTENT_WIDTH - 80 });
    doc
      .font('Helvetica')
      .fontSize(11)
      .fillColor(INK_700)
      .text(String(Number(n) + 2), PAGE.width - MARGIN - 30, y, { width: 30, align: 'right' });
    doc.y = y + 26;
    doc
      .save()
      .moveTo(MARGIN, doc.y - 8)
      .lineTo(PAGE.width - MARGIN, doc.y - 8)
      .lineWidth(0.5)
      .stroke(INK_100)
      .restore();
  }
  doc.moveDown(1.5);
  callout(doc, 'Important: education, not financial advice', NOTICE);
  paragraph(
    doc,
    'Figures are for the 2025/26 UK tax year and, unless stated, for taxpayers in England, Wales and Northern Ireland; Scottish income tax bands differ. Examples are illustrations, not forecasts.',
  );
}

/** Renders the whole guide; resolves with the PDF's bytes. */
export function renderGuidePdf(options: { brand: string; siteUrl: string }): Promise<Uint8Array> {
  const fixedDate = new Date('2025-06-01T00:00:00Z');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 0,
    bufferPages: true,
    info: {
      Title: 'The Bitcoin Wealth Building Guide',
      Author: options.brand,
      Subject:
        'Building wealth and thinking about Bitcoin for UK professionals. Education, not financial advice.',
      Keywords: 'Bitcoin, ISA, pension, capital gains tax, custody, UK',
      CreationDate: fixedDate,
      ModDate: fixedDate,
    },
    lang: 'en-GB',
    displayTitle: true,
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  cover(doc, options.brand, options.siteUrl.replace(/^https?:\/\//, ''));
  contents(doc);
  for (const page of PAGES) {
    doc.addPage();
    header(doc, page.eyebrow, page.title);
    for (const b of page.blocks) block(doc, b);
  }
  footers(doc, options.brand);
  doc.end();
  return done;
}
