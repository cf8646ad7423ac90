/** The one stable address of the Wealth Building Guide (generated at build time by scripts/guide-pdf.ts). */
export const GUIDE_PDF_PATH = '/guides/wealth-building-guide.pdf';
export const GUIDE_TITLE = 'Wealth Building Guide';
export const GUIDE_FORM_TYPE = 'bitcoin_guide';
