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
