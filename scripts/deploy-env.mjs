#!/usr/bin/env node
/**
 * Writes the environment file of a live site (README, "Going live"; the systemd unit in deploy/
 * reads it): every setting a live server needs, for one domain, with a secret of its own.
 *
 *   node scripts/deploy-env.mjs --domain example.co.uk --owner you@example.co.uk \
 *     --smtp 'smtps://user:password@smtp.relay.example:465' > env
 *
 * The secret (APP_SECRET) is 48 random bytes. Keep the file readable by root and the service's
 * group only (0640): it holds the relay's password and the secret. Nothing is sent anywhere.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';

const USAGE =
  'Usage: node scripts/deploy-env.mjs --domain example.co.uk --owner you@example.co.uk [--smtp smtps://user:password@relay:465] [--from hello@example.co.uk] [--name "Your name"] [--dkim-selector sterling2026]';

const DOMAIN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/;
const EMAIL = /^[^\s@"<>,]+@[^\s@"<>,]+\.[^\s@"<>,]+$/;

/** The file's text for these answers, or a sentence saying what is wrong with them. */
export function deployEnv(options, secret = randomBytes(48).toString('base64url')) {
  const domain = String(options.domain ?? '')
    .trim()
    .toLowerCase();
  const owner = String(options.owner ?? '').trim();
  const from = String(options.from ?? `hello@${domain}`).trim();
  const smtp = String(options.smtp ?? '').trim();
  const name = String(options.name ?? '').trim();
  const selector = String(options['dkim-selector'] ?? `sterling${new Date().getUTCFullYear()}`).trim();
  if (!DOMAIN.test(domain))
    return { error: `The domain "${domain}" is not a domain name such as example.co.uk.` };
  if (!EMAIL.test(owner))
    return { error: 'The owner’s e-mail address (--owner) is missing or not an address.' };
  if (!EMAIL.test(from)) return { error: `The sending address (--from) "${from}" is not an address.` };
  if (smtp !== '' && !/^smtps?:\/\/[^\s]+$/.test(smtp))
    return { error: 'The relay (--smtp) must be an smtp:// or smtps:// address.' };
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/i.test(selector))
    return { error: `The DKIM selector "${selector}" may hold only letters, digits and hyphens.` };
  if (/[\r\n]/.test(name)) return { error: 'The owner’s name is one line.' };
  const lines = [
    '# The live site’s settings (README, "Going live"). Made by scripts/deploy-env.mjs.',
    '# After changing PUBLIC_URL or a VITE_ setting, build again (they are baked into the pages).',
    'NODE_ENV=production',
    `PUBLIC_URL=https://${domain}`,
    '# Only Caddy, on this machine, reaches the server; X-Forwarded-For is trusted from it alone.',
    'HOST=127.0.0.1',
    'PORT=3000',
    'TRUST_PROXY=127.0.0.1',
    `OWNER_EMAIL=${owner}`,
    name ? `OWNER_NAME=${name}` : '# OWNER_NAME=Your name',
    `MAIL_FROM=${from}`,
    smtp
      ? `SMTP_URL=${smtp}`
      : '# SMTP_URL=smtps://user:password@smtp.your-relay.example:465  (until set, e-mails are files)',
    `# Signs every e-mail: start once, then publish the TXT record the log prints (README).`,
    `DKIM_SELECTOR=${selector}`,
    `APP_SECRET=${secret}`,
    '# Backups: nightly at 03:00 UK time into /var/lib/sterling-sats/backups (README, "Going live").',
    '# Copy each one off this machine (strongly advised): BACKUP_COPY_COMMAND=rclone copy "$BACKUP_PATH" remote:sterling-backups/$BACKUP_NAME',
    '# Encrypt them to a key kept off this server (npm run backup -- --new-key): BACKUP_AGE_RECIPIENT=age1...',
    '# Several instances sharing one rate limit: REDIS_URL=redis://127.0.0.1:6379',
    '# An external PostgreSQL instead of the embedded one: DATABASE_URL=postgres://...',
    '# The voice simulator (build time): VITE_VAPI_PUBLIC_KEY=... and VITE_VAPI_ASSISTANT_ID=...',
    '',
  ];
  return { text: lines.join('\n') };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        domain: { type: 'string' },
        owner: { type: 'string' },
        from: { type: 'string' },
        smtp: { type: 'string' },
        name: { type: 'string' },
        'dkim-selector': { type: 'string' },
      },
    }));
  } catch (error) {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  const result = deployEnv(values);
  if (result.error) {
    console.error(`${result.error}\n${USAGE}`);
    process.exit(2);
  }
  process.stdout.write(result.text);
}
