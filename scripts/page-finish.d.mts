/** Types of scripts/page-finish.mjs. */
export const FEED_LINK: string;
export function finishPage(rendered: string): { html: string; scriptHashes: string[] };
export const COMPRESSIBLE: RegExp;
export const MIN_COMPRESSED: number;
export function compressBody(body: Buffer): { br: Buffer; gz: Buffer };
