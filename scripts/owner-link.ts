#!/usr/bin/env node
/**
 * `npm run owner:link [-- address]`: prints a fresh single-use sign-in link to the owner's
 * console, valid 15 minutes. Run it on the server's machine with the server's settings (the
 * same DATA_DIR or APP_SECRET): the first sign-in, and the way in when e-mail is what is broken.
 * The address defaults to OWNER_EMAIL; another must be listed in OWNER_EMAILS or HELPER_EMAILS.
 */
import { ConfigError, loadConfig } from '../src/server/kit/config';
import { createLinks } from '../src/server/kit/http/links';
import { maySignIn, SIGN_IN_MINUTES, signInLink } from '../src/server/console/sign-in';

try {
  const config = loadConfig();
  const email = (process.argv[2] ?? config.ownerEmail).trim().toLowerCase();
  if (!maySignIn(config, email)) {
    console.error(`${email} may not sign in: set OWNER_EMAIL, or list it in OWNER_EMAILS or HELPER_EMAILS.`);
    process.exit(1);
  }
  const url = await signInLink(config, createLinks(config.publicUrl, config.appSecret), email);
  console.log(url);
  console.error(`Single use, valid ${SIGN_IN_MINUTES} minutes, for ${email}.`);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
