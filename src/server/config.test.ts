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
  });

  it.each([
    ['PORT', 'abc'],
    ['PUBLIC_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://x'],
    ['SMTP_URL', 'http://mail'],
    ['OWNER_EMAIL', 'nobody'],
    ['APP_SECRET', 'short'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses a bad %s, naming the variable', (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(new RegExp(name));
  });

  it('reads https, trust proxy hop counts and strips a trailing slash', () => {
    const c = loadConfig({ ...base, PUBLIC_URL: 'https://www.example.com/', TRUST_PROXY: '1' });
    expect(c.publicUrl).toBe('https://www.example.com');
    expect(c.https).toBe(true);
    expect(c.trustProxy).toBe(1);
  });
});
