/**
 * Who the form rate limit counts: an IPv4 client by its address, an IPv6 client by its /64
 * (one subscriber holds a whole /64, so single addresses would give it endless fresh windows).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitSubject } from '../../src/server/root/forms/rate-limit';
import { bodies, makeFormsApp, type FormsTestApp } from './forms-support';

describe('rateLimitSubject', () => {
  it('keeps an IPv4 address', () => {
    expect(rateLimitSubject('203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitSubject(' 203.0.113.7 ')).toBe('203.0.113.7');
  });

  it('takes an IPv4-mapped IPv6 address for the IPv4 client it is', () => {
    expect(rateLimitSubject('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitSubject('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(rateLimitSubject('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(rateLimitSubject('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
    expect(rateLimitSubject('[::ffff:203.0.113.7]')).toBe('203.0.113.7');
  });

  it('counts every spelling of an address in one /64 as one subject', () => {
    const subject = '2001:db8:1:2::/64';
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:db8:1:2::',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0000:0000:0000:0001',
      '2001:db8:1:2:a:b:c:d',
      '2001:db8:1:2::1%eth0',
      '[2001:db8:1:2::1]',
      '2001:db8:1:2:0:0:1.2.3.4',
    ]) {
      expect(rateLimitSubject(ip), ip).toBe(subject);
    }
  });

  it('keeps different /64s apart', () => {
    expect(rateLimitSubject('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(rateLimitSubject('2001:db8:1::1')).toBe('2001:db8:1:0::/64');
    expect(rateLimitSubject('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(rateLimitSubject('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitSubject('::')).toBe('0:0:0:0::/64');
    expect(rateLimitSubject('fe80::1%lo')).toBe('fe80:0:0:0::/64');
    // An IPv4-compatible or NAT64 spelling is an IPv6 address, not the IPv4 client.
    expect(rateLimitSubject('64:ff9b::203.0.113.7')).toBe('64:ff9b:0:0::/64');
  });

  it('leaves a value that is not an IP address as it is', () => {
    expect(rateLimitSubject('unknown')).toBe('unknown');
    expect(rateLimitSubject('1.2.3')).toBe('1.2.3');
    expect(rateLimitSubject('2001:db8::1::2')).toBe('2001:db8::1::2');
  });
});

describe('the form rate limit over IPv6', () => {
  let t: FormsTestApp;
  beforeAll(async () => {
    // Only the rate limit is under test here, not the minimum fill time.
    t = await makeFormsApp({ BENCH_DISABLE_FILL_TIME: 'true' });
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('gives two addresses in one /64 one window, and another /64 its own', async () => {
    const statuses = [
      (await t.post(bodies.contact(), {}, '2001:db8:aa:1::1')).statusCode,
      (await t.post(bodies.contact(), {}, '2001:db8:aa:1::2')).statusCode,
      (await t.post(bodies.contact(), {}, '2001:db8:aa:1:ffff:1:2:3')).statusCode,
      (await t.post(bodies.contact(), {}, '2001:db8:aa:1::4')).statusCode,
    ];
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The neighbouring /64 is another subscriber.
    expect((await t.post(bodies.contact(), {}, '2001:db8:aa:2::1')).statusCode).toBe(200);
    // Each submission still records a hash of its own address, not of the /64.
    const rows = await t.query<{ ip_hash: string }>(
      "select ip_hash from submissions where form_type = 'contact'",
    );
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.ip_hash)).size).toBe(4);
  });

  it('counts an IPv4 client seen through a dual-stack socket as that IPv4 client', async () => {
    const statuses = [
      (await t.post(bodies.contact(), {}, '192.0.2.50')).statusCode,
      (await t.post(bodies.contact(), {}, '::ffff:192.0.2.50')).statusCode,
      (await t.post(bodies.contact(), {}, '192.0.2.50')).statusCode,
      (await t.post(bodies.contact(), {}, '::ffff:c000:232')).statusCode,
    ];
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await t.post(bodies.contact(), {}, '192.0.2.51')).statusCode).toBe(200);
  });
});
