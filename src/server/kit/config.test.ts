import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const base = { APP_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp/config-test' };

describe('loadConfig', () => {
  it('gives the embedded defaults', () => {
    const c = loadConfig(base);
    expect(c.port).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.databaseUrl).toBeUndefined();
    expect(c.smtpUrl).toBeUndefined();
    expect(c.https).toBe(false);
    expect(c.trustProxy).toBe(false);
    expect(c.downloadsGiveWay).toBe(true);
    expect(c.visitsTodayMaxAgeMs).toBe(60_000);
    expect(c.outboxLeaseMs).toBe(60_000);
  });

  it("reads how old the Visits page's count of today may be, 0 to 3600 seconds", () => {
    expect(loadConfig({ ...base, VISITS_TODAY_MAX_AGE_SECONDS: '0' }).visitsTodayMaxAgeMs).toBe(0);
    expect(loadConfig({ ...base, VISITS_TODAY_MAX_AGE_SECONDS: '300' }).visitsTodayMaxAgeMs).toBe(300_000);
  });

  it('turns the give-way of downloads off with DOWNLOADS_GIVE_WAY=false, and on when left empty', () => {
    expect(loadConfig({ ...base, DOWNLOADS_GIVE_WAY: 'false' }).downloadsGiveWay).toBe(false);
    expect(loadConfig({ ...base, DOWNLOADS_GIVE_WAY: '' }).downloadsGiveWay).toBe(true);
  });

  it.each([
    ['PORT', 'abc'],
    ['PUBLIC_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://x'],
    ['SMTP_URL', 'http://mail'],
    ['OWNER_EMAIL', 'nobody'],
    ['APP_SECRET', 'short'],
    ['LOG_LEVEL', 'loud'],
    ['DOWNLOADS_GIVE_WAY', 'sometimes'],
    ['VISITS_TODAY_MAX_AGE_SECONDS', '-1'],
    ['VISITS_TODAY_MAX_AGE_SECONDS', '3601'],
    ['VISITS_TODAY_MAX_AGE_SECONDS', 'a minute'],
  ])('refuses a bad %s, naming the variable', (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(new RegExp(name));
  });

  it('reads https and strips a trailing slash', () => {
    const c = loadConfig({ ...base, PUBLIC_URL: 'https://www.example.com/' });
    expect(c.publicUrl).toBe('https://www.example.com');
    expect(c.https).toBe(true);
  });
});

describe('TRUST_PROXY', () => {
  const trust = (value: string) => loadConfig({ ...base, TRUST_PROXY: value }).trustProxy;
  const refusal = (value: string) => {
    try {
      loadConfig({ ...base, TRUST_PROXY: value });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error(`TRUST_PROXY=${value} was accepted`);
  };

  it('is off by default and when false', () => {
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust(' FALSE ')).toBe(false);
  });

  it("takes the proxy's addresses and CIDR ranges, IPv4 and IPv6, comma-separated", () => {
    expect(trust('127.0.0.1')).toEqual(['127.0.0.1']);
    expect(trust('10.0.0.0/8')).toEqual(['10.0.0.0/8']);
    expect(trust(' 127.0.0.1 , 10.0.0.0/8,::1, fd00::/8 ,2001:db8::/32,192.0.2.1/32,')).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      '2001:db8::/32',
      '192.0.2.1/32',
    ]);
    expect(trust('::ffff:10.0.0.0/104')).toEqual(['::ffff:10.0.0.0/104']);
  });

  it.each(['1', '2', '0', '10'])('refuses the hop count %s, saying what to set instead', (value) => {
    const message = refusal(value);
    expect(message).toMatch(/TRUST_PROXY/);
    expect(message).toMatch(/hop count/);
    expect(message).toMatch(/list the proxy's addresses or CIDR ranges/);
  });

  it.each(['true', 'TRUE'])('refuses %s, saying what to set instead', (value) => {
    const message = refusal(value);
    expect(message).toMatch(/TRUST_PROXY/);
    expect(message).toMatch(/list the proxy's addresses or CIDR ranges/);
  });

  it.each([
    'loopback',
    'yes',
    '127.0.0.256',
    '127.0.0',
    '010.0.0.1',
    '10.0.0.0/33',
    '10.0.0.0/-1',
    '10.0.0.0/8/8',
    '10.0.0.0/',
    '10.0.0.0/255.0.0.0',
    '::1/129',
    'fe80::1%eth0',
    '2001:db8::1::2',
    '127.0.0.1;10.0.0.1',
    '127.0.0.1 10.0.0.1',
    '127.0.0.1,true',
    ',',
    '0.0.0.0/0',
    '::/0',
  ])('refuses %s, naming the variable and what to list', (value) => {
    const message = refusal(value);
    expect(message).toMatch(/TRUST_PROXY/);
    expect(message).toMatch(/list the proxy's addresses or CIDR ranges/);
  });
});

describe('the generated secret in DATA_DIR/.app-secret', () => {
  const noSecret = (dataDir: string) => ({ DATA_DIR: dataDir });
  const freshDir = () => mkdtempSync(join(tmpdir(), 'config-secret-'));

  it('refuses an empty secret file, naming it and saying what to do', () => {
    const dir = freshDir();
    writeFileSync(join(dir, '.app-secret'), '\n', { mode: 0o600 });
    expect(() => loadConfig(noSecret(dir))).toThrow(ConfigError);
    expect(() => loadConfig(noSecret(dir))).toThrow(join(dir, '.app-secret'));
    expect(() => loadConfig(noSecret(dir))).toThrow(/empty.*Delete the file.*APP_SECRET/s);
  });

  it('refuses a secret file under 32 bytes once trimmed', () => {
    const dir = freshDir();
    writeFileSync(join(dir, '.app-secret'), ` ${'s'.repeat(31)} \n`, { mode: 0o600 });
    expect(() => loadConfig(noSecret(dir))).toThrow(
      /only 31 bytes.*at least 32.*Delete the file.*APP_SECRET/s,
    );
  });

  it('accepts a secret file of 32 bytes, without its surrounding white space', () => {
    const dir = freshDir();
    writeFileSync(join(dir, '.app-secret'), `${'s'.repeat(32)}\n`, { mode: 0o600 });
    expect(loadConfig(noSecret(dir)).appSecret).toBe('s'.repeat(32));
  });

  it('generates a secret of 32+ bytes in a file of mode 0600, and reads it back at the next start', () => {
    const dir = freshDir();
    const first = loadConfig(noSecret(dir)).appSecret;
    const file = join(dir, '.app-secret');
    expect(Buffer.byteLength(first)).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Only the secret is left: its temporary file is gone.
    expect(readdirSync(dir)).toEqual(['.app-secret']);
    expect(loadConfig(noSecret(dir)).appSecret).toBe(first);
  });

  it('creates DATA_DIR readable by its owner only', () => {
    const dir = join(freshDir(), 'nested', 'data');
    loadConfig(noSecret(dir));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(dir)).mode & 0o777).toBe(0o700);
  });

  it('tightens an existing DATA_DIR holding only what the server keeps there', () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'mail'));
    chmodSync(dir, 0o755);
    loadConfig(noSecret(dir));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('leaves a folder that also holds files of others as it is', () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'notes.txt'), 'not the server’s');
    chmodSync(dir, 0o755);
    loadConfig(noSecret(dir));
    expect(statSync(dir).mode & 0o777).toBe(0o755);
    expect(statSync(join(dir, '.app-secret')).mode & 0o777).toBe(0o600);
  });
});

describe('who may sign in to the console, and what a production server was not told', () => {
  it('lets OWNER_EMAIL and the OWNER_EMAILS list sign in, lower-cased, once each', () => {
    const c = loadConfig({
      ...base,
      OWNER_EMAIL: 'Owner@Example.com',
      OWNER_EMAILS: ' partner@example.com, OWNER@example.com ,',
    });
    expect(c.ownerEmails).toEqual(['owner@example.com', 'partner@example.com']);
    expect(loadConfig(base).ownerEmails).toEqual(['owner@example.com']);
  });

  it('refuses an OWNER_EMAILS entry that is not an address, naming it', () => {
    expect(() => loadConfig({ ...base, OWNER_EMAILS: 'a@example.com, not-an-address' })).toThrow(
      /OWNER_EMAILS: "not-an-address" is not an e-mail address/,
    );
  });

  it('gives each address a role: OWNER_EMAIL and OWNER_EMAILS owners, HELPER_EMAILS helpers, with names', () => {
    const c = loadConfig({
      ...base,
      OWNER_EMAIL: 'owner@example.com',
      OWNER_NAME: 'Sam \u202eSterling',
      OWNER_EMAILS: 'partner@example.com, "Grace Hopper" <Grace@Example.com>',
      HELPER_EMAILS: 'Ada <ada@example.com>, bob.smith@example.com',
    });
    expect(c.consoleUsers).toEqual([
      { email: 'owner@example.com', role: 'owner', name: 'Sam Sterling' },
      { email: 'partner@example.com', role: 'owner', name: 'Partner' },
      { email: 'grace@example.com', role: 'owner', name: 'Grace Hopper' },
      { email: 'ada@example.com', role: 'helper', name: 'Ada' },
      { email: 'bob.smith@example.com', role: 'helper', name: 'Bob.smith' },
    ]);
    expect(c.ownerEmails).toEqual(c.consoleUsers.map((u) => u.email));
    expect(loadConfig(base).consoleUsers).toEqual([
      { email: 'owner@example.com', role: 'owner', name: 'Owner' },
    ]);
  });

  it('refuses an address that is both an owner and a helper, and a HELPER_EMAILS entry that is no address', () => {
    expect(() =>
      loadConfig({ ...base, OWNER_EMAILS: 'ada@example.com', HELPER_EMAILS: 'Ada@example.com' }),
    ).toThrow(/HELPER_EMAILS: ada@example.com is an owner .* and a helper: list it in one of them/);
    expect(() =>
      loadConfig({ ...base, OWNER_EMAIL: 'me@example.com', HELPER_EMAILS: 'me@example.com' }),
    ).toThrow(/is an owner/);
    expect(() => loadConfig({ ...base, HELPER_EMAILS: 'Ada <not-an-address>' })).toThrow(
      /HELPER_EMAILS: "Ada <not-an-address>" is not an e-mail address/,
    );
  });

  it('lists SMTP_URL, OWNER_EMAIL, MAIL_FROM and PUBLIC_URL when left unset or empty', () => {
    expect(loadConfig({ ...base, MAIL_FROM: ' ' }).essentialsAtDefault).toEqual([
      'SMTP_URL',
      'OWNER_EMAIL',
      'MAIL_FROM',
      'PUBLIC_URL',
    ]);
    expect(
      loadConfig({
        ...base,
        SMTP_URL: 'smtp://relay.example.com',
        OWNER_EMAIL: 'o@example.com',
        MAIL_FROM: 'm@example.com',
        PUBLIC_URL: 'https://www.example.com',
      }).essentialsAtDefault,
    ).toEqual([]);
  });
});
