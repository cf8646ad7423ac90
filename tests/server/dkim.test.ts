/**
 * DKIM signing (decision 044): every e-mail the site sends carries a DKIM-Signature that a real
 * verifier (mailauth, given the record the server says to publish as its DNS answer) passes, over
 * SMTP to a real peer and in the `.eml` files; a message changed on the way fails; the key is made
 * once in DATA_DIR (mode 0600) and read back; a bad key or a missing key file stops start-up with
 * a sentence; without DKIM_SELECTOR nothing is signed and a production server says so.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configWarnings, DKIM_OFF } from '../../src/server/console/overview';
import { ConfigError, DKIM_KEY_FILE, loadConfig } from '../../src/server/kit/config';
import { dkimRecord } from '../../src/server/kit/mail/dkim';
import {
  bodies,
  makeFormsApp,
  SECRET,
  startSmtpPeer,
  until,
  type FormsTestApp,
  type SmtpPeer,
} from './forms-support';

const base = {
  NODE_ENV: 'test',
  APP_SECRET: SECRET,
  MAIL_FROM: 'hello@sterling.test',
  PUBLIC_URL: 'https://www.sterling.test',
};

/** mailauth's DKIM check of a raw message, with `record` as the DNS answer for `name`. */
async function verify(raw: string, name: string, record: string) {
  const resolver = async (asked: string, type: string) => {
    if (type === 'TXT' && asked === name) return [[record]];
    throw Object.assign(new Error(`no ${type} record for ${asked}`), { code: 'ENOTFOUND' });
  };
  const { results } = await dkimVerify(Buffer.from(raw), { resolver });
  return results.map((r) => ({ status: r.status.result, domain: r.signingDomain, selector: r.selector }));
}

describe('DKIM signing over SMTP', () => {
  let peer: SmtpPeer;
  let t: FormsTestApp;
  let record: string;

  beforeAll(async () => {
    peer = await startSmtpPeer();
    t = await makeFormsApp({ SMTP_URL: peer.url, DKIM_SELECTOR: 'mail' });
    record = dkimRecord(readFileSync(join(t.dataDir, DKIM_KEY_FILE), 'utf8'));
  });
  afterAll(async () => {
    await t?.app.close();
    await peer?.close();
  });

  it('signs the e-mails of a form with the key kept in DATA_DIR, and a verifier passes them', async () => {
    const res = await t.post(bodies.contact());
    expect(res.statusCode).toBe(200);
    const mails = await peer.waitFor(1);
    const mail = mails[0]!;
    expect(mail.header('dkim-signature')).toMatch(/\bd=sterling\.test;/);
    expect(mail.header('dkim-signature')).toMatch(/\bs=mail;/);
    expect(await verify(mail.raw, 'mail._domainkey.sterling.test', record)).toEqual([
      { status: 'pass', domain: 'sterling.test', selector: 'mail' },
    ]);
    // The key file is the server user's alone.
    expect(statSync(join(t.dataDir, DKIM_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  it('a signed message changed on the way fails, and so does another key', async () => {
    const raw = peer.mails[0]!.raw;
    const changed = raw.replace(/^Subject: (.*)$/m, 'Subject: $1 (changed)');
    expect(changed).not.toBe(raw);
    expect((await verify(changed, 'mail._domainkey.sterling.test', record))[0]?.status).toBe('fail');
    const otherDir = mkdtempSync(join(tmpdir(), 'dkim-other-'));
    loadConfig({ ...base, DATA_DIR: otherDir, DKIM_SELECTOR: 'mail' });
    const other = dkimRecord(readFileSync(join(otherDir, DKIM_KEY_FILE), 'utf8'));
    expect(other).not.toBe(record);
    expect((await verify(raw, 'mail._domainkey.sterling.test', other))[0]?.status).toBe('fail');
  });
});

describe('DKIM settings', () => {
  it('makes the key once and reads the same one at the next start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dkim-key-'));
    const first = loadConfig({ ...base, DATA_DIR: dir, DKIM_SELECTOR: 'Mail2026' });
    const second = loadConfig({ ...base, DATA_DIR: dir, DKIM_SELECTOR: 'mail2026' });
    expect(first.dkim).toMatchObject({ selector: 'mail2026', domain: 'sterling.test' });
    expect(second.dkim?.privateKey).toBe(first.dkim?.privateKey);
    expect(readdirSync(dir).filter((name) => name.includes('dkim'))).toEqual([DKIM_KEY_FILE]);
    // Another signing domain than MAIL_FROM's.
    expect(
      loadConfig({ ...base, DATA_DIR: dir, DKIM_SELECTOR: 'mail', DKIM_DOMAIN: 'Mail.Sterling.test' }).dkim
        ?.domain,
    ).toBe('mail.sterling.test');
  });

  it('refuses a key that is no RSA key, a missing key file, a bad selector or domain, each with a sentence', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dkim-bad-'));
    writeFileSync(join(dir, DKIM_KEY_FILE), 'not a key', { mode: 0o600 });
    expect(() => loadConfig({ ...base, DATA_DIR: dir, DKIM_SELECTOR: 'mail' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, DATA_DIR: dir, DKIM_SELECTOR: 'mail' })).toThrow(
      /not an RSA private key/,
    );
    expect(() =>
      loadConfig({
        ...base,
        DATA_DIR: dir,
        DKIM_SELECTOR: 'mail',
        DKIM_PRIVATE_KEY_FILE: join(dir, 'nowhere.pem'),
      }),
    ).toThrow(/DKIM_PRIVATE_KEY_FILE names no file/);
    expect(() => loadConfig({ ...base, DATA_DIR: dir, DKIM_SELECTOR: 'mail;x=1' })).toThrow(/DKIM_SELECTOR/);
    expect(() => loadConfig({ ...base, DATA_DIR: dir, DKIM_SELECTOR: 'mail', DKIM_DOMAIN: 'a b' })).toThrow(
      /DKIM_DOMAIN/,
    );
  });

  it('off without DKIM_SELECTOR: nothing signed, and a production server says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dkim-off-'));
    const config = loadConfig({ ...base, DATA_DIR: dir });
    expect(config.dkim).toBeUndefined();
    expect(readdirSync(dir)).not.toContain(DKIM_KEY_FILE);
    expect(configWarnings({ ...config, env: 'production' })).toContain(DKIM_OFF);
    const on = loadConfig({ ...base, DATA_DIR: dir, DKIM_SELECTOR: 'mail' });
    expect(configWarnings({ ...on, env: 'production' })).not.toContain(DKIM_OFF);
    expect(configWarnings({ ...config, env: 'test' })).toEqual([]);

    // The .eml files (no SMTP_URL) are signed as the relay's messages are, and unsigned when off.
    for (const [env, signed] of [
      [{ DKIM_SELECTOR: 'mail' }, true],
      [{}, false],
    ] as const) {
      const t = await makeFormsApp(env);
      try {
        expect((await t.post(bodies.contact())).statusCode).toBe(200);
        const mailDir = join(t.dataDir, 'mail');
        const files = await until(() => {
          try {
            const eml = readdirSync(mailDir).filter((f) => f.endsWith('.eml'));
            return eml.length > 0 && eml;
          } catch {
            return false;
          }
        });
        const raw = readFileSync(join(mailDir, files[0]!), 'utf8');
        expect(/^DKIM-Signature:/im.test(raw)).toBe(signed);
        if (signed) {
          const record = dkimRecord(readFileSync(join(t.dataDir, DKIM_KEY_FILE), 'utf8'));
          expect((await verify(raw, 'mail._domainkey.sterling.test', record))[0]?.status).toBe('pass');
        }
      } finally {
        await t.app.close();
      }
    }
  });
});
