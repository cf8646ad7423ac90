/**
 * A push service on loopback, for the alerts' tests (decision 041): it keeps every message posted
 * to it and answers 201, or the status set for an endpoint (410: the subscription is gone). A
 * subscription made here is what a browser gives: the push service's address for it and the keys
 * its messages are encrypted to; `read` decrypts one (RFC 8291, aes128gcm, with http_ece) and
 * checks its VAPID signature (RFC 8292) against the server's public key.
 */
import { createECDH, createPublicKey, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import ece from 'http_ece';

export type Posted = { path: string; headers: IncomingHttpHeaders; body: Buffer };

export type TestSubscription = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The receiving browser's private half. */
  ecdh: ECDH;
};

export type PushService = {
  url: string;
  posted: Posted[];
  subscription(name?: string): TestSubscription;
  /** Answers this status to the endpoint's messages from now on. */
  answer(endpoint: string, status: number): void;
  /** The messages posted to `sub`, decrypted, each with its VAPID key (`k`) checked. */
  read(sub: TestSubscription, vapidPublicKey: string): unknown[];
  close(): Promise<void>;
};

let made = 0;

export async function startPushService(): Promise<PushService> {
  const posted: Posted[] = [];
  const statuses = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      posted.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(statuses.get(path) ?? 201);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    posted,
    subscription(name = 'device') {
      made += 1;
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return {
        endpoint: `${url}/push/${name}-${made}-${randomBytes(6).toString('hex')}`,
        keys: {
          p256dh: ecdh.getPublicKey().toString('base64url'),
          auth: randomBytes(16).toString('base64url'),
        },
        ecdh,
      };
    },
    answer(endpoint, status) {
      statuses.set(new URL(endpoint).pathname, status);
    },
    read(sub, vapidPublicKey) {
      const path = new URL(sub.endpoint).pathname;
      return posted
        .filter((p) => p.path === path)
        .map((p) => {
          checkVapid(p.headers, vapidPublicKey, new URL(sub.endpoint).origin);
          const plain = ece.decrypt(p.body, {
            version: 'aes128gcm',
            privateKey: sub.ecdh,
            authSecret: sub.keys.auth,
          });
          return JSON.parse(plain.toString('utf8')) as unknown;
        });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The Authorization header is `vapid t=<ES256 JWT for this origin>, k=<the server's key>`. */
function checkVapid(headers: IncomingHttpHeaders, publicKey: string, audience: string) {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(String(headers.authorization ?? ''));
  if (!match) throw new Error(`no VAPID authorization: ${String(headers.authorization)}`);
  const [, jwt, k] = match as unknown as [string, string, string];
  if (k !== publicKey) throw new Error('the VAPID key is not the server’s');
  const [head, claims, signature] = jwt.split('.') as [string, string, string];
  const point = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('the VAPID signature does not verify');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as { aud: string; exp: number };
  if (body.aud !== audience) throw new Error(`the VAPID audience is ${body.aud}, not ${audience}`);
  if (body.exp * 1000 < Date.now()) throw new Error('the VAPID token has expired');
}
