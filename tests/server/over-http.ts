/**
 * The server over real sockets, in both of its modes: with the static fast path in front of
 * Node's HTTP server (decision 012), and with `STATIC_FAST_PATH=false`, Node alone. Suites that
 * check what the server answers run once per mode with `describe.each(SERVER_MODES)`.
 */
import { request, type IncomingHttpHeaders } from 'node:http';
import { makeTestApp } from './helpers';

export const SERVER_MODES = [
  { mode: 'with the static fast path', env: {} as Record<string, string>, fastPath: true },
  {
    mode: 'with STATIC_FAST_PATH=false (Node alone)',
    env: { STATIC_FAST_PATH: 'false' } as Record<string, string>,
    fastPath: false,
  },
];

export type HttpAnswer = {
  statusCode: number;
  headers: IncomingHttpHeaders;
  rawPayload: Buffer;
  body: string;
  json(): unknown;
};

/** One request over a real socket, answered like `app.inject()` answers (the body as sent, not decoded). */
export function httpRequest(
  port: number,
  {
    method = 'GET',
    url,
    headers = {},
    body,
  }: { method?: string; url: string; headers?: Record<string, string>; body?: string },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: url, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const rawPayload = Buffer.concat(chunks);
        const text = rawPayload.toString('utf8');
        resolve({
          statusCode: res.statusCode ?? 0,
          headers: res.headers,
          rawPayload,
          body: text,
          json: () => JSON.parse(text) as unknown,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The app listening on a free port of 127.0.0.1. */
export async function listenTestApp(env: Record<string, string> = {}) {
  const t = await makeTestApp(env);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { ...t, port, call: (options: Parameters<typeof httpRequest>[1]) => httpRequest(port, options) };
}
