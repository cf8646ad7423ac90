/**
 * zod as every form schema imports it. zod compiles object parsers with `new Function` when it
 * may; our CSP forbids eval, and even its probe for eval shows as a CSP violation in the
 * browser. Importing zod through this module turns that off before any schema is built.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
