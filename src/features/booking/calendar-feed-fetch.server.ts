/**
 * Fetching the owner's calendar address (decision 037). The address is typed by the owner, so its
 * request is one from inside the network: https only (webcal:// is read as https://), and no
 * connection to a private, loopback, link-local or reserved address, checked on every connection
 * after DNS (request-filtering-agent), so a redirect or a name that resolves inward is refused
 * too. Settings allow http and private addresses for tests (CALENDAR_FEED_ALLOW_HTTP,
 * CALENDAR_FEED_ALLOW_PRIVATE). A body larger than `maxBytes` or a fetch slower than `timeoutMs`
 * (redirects included) is refused. Errors are sentences for the owner that never hold the address.
 */
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';

/**
 * The HTTP client and the address filter, loaded by the first fetch: dynamic imports stay so in
 * the server's bundle, so a site whose owner set no calendar never loads them.
 */
async function client() {
  const [http, https, filter] = await Promise.all([
    import('node:http'),
    import('node:https'),
    import('request-filtering-agent'),
  ]);
  return { http, https, filter };
}
type Client = Awaited<ReturnType<typeof client>>;

export type FeedFetchPolicy = {
  allowHttp: boolean;
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
};

export const FEED_LIMITS = { timeoutMs: 15_000, maxBytes: 10 * 1024 * 1024, maxRedirects: 5 } as const;

/** A feed that could not be read; `message` is for the owner (it never holds the address). */
export class FeedFetchError extends Error {}

/** The address the server requests for what the owner pasted: webcal:// is https://. */
export function feedRequestUrl(pasted: string): URL {
  const url = new URL(pasted.trim());
  if (url.protocol === 'webcal:' || url.protocol === 'webcals:')
    return new URL(`https:${pasted.trim().slice(url.protocol.length)}`);
  return url;
}

/** Why an address cannot be fetched under `policy` (its scheme), or undefined. */
export function refusedScheme(url: URL, policy: Pick<FeedFetchPolicy, 'allowHttp'>): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && policy.allowHttp) return undefined;
  return 'The calendar address must start with https:// or webcal://.';
}

const PRIVATE_MESSAGE = /not allowed|private IP|meta IP/i;

function fetchOnce({ http, https, filter }: Client, url: URL, policy: FeedFetchPolicy, deadline: number) {
  return new Promise<{ redirect: string } | { body: string }>((resolve, reject) => {
    const secure = url.protocol === 'https:';
    const agentOptions = { allowPrivateIPAddress: policy.allowPrivate, keepAlive: false };
    const agent = secure
      ? new filter.RequestFilteringHttpsAgent(agentOptions)
      : new filter.RequestFilteringHttpAgent(agentOptions);
    const left = deadline - Date.now();
    if (left <= 0) return reject(new FeedFetchError('The calendar took too long to answer.'));
    const get: (
      url: URL,
      options: RequestOptions,
      callback: (response: IncomingMessage) => void,
    ) => ClientRequest = secure ? https.get : http.get;
    const request = get(
      url,
      {
        agent,
        headers: { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'calendar-busy-times' },
        timeout: left,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          response.resume();
          resolve({ redirect: response.headers.location });
          return;
        }
        if (status !== 200) {
          response.resume();
          reject(
            new FeedFetchError(
              status === 404 || status === 410
                ? `The calendar address answered ${status} (not found): it may have been replaced in your calendar's settings.`
                : status === 401 || status === 403
                  ? `The calendar address answered ${status} (not allowed): copy the secret address again from your calendar's settings.`
                  : `The calendar address answered ${status}.`,
            ),
          );
          return;
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > policy.maxBytes) {
          response.destroy();
          reject(tooLarge(policy));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > policy.maxBytes) {
            response.destroy();
            reject(tooLarge(policy));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', () => reject(new FeedFetchError("The calendar's answer was cut off.")));
      },
    );
    const timer = setTimeout(
      () => request.destroy(new FeedFetchError('The calendar took too long to answer.')),
      left,
    );
    request.on('close', () => clearTimeout(timer));
    request.on('timeout', () => request.destroy(new FeedFetchError('The calendar took too long to answer.')));
    request.on('error', (error: Error) => {
      if (error instanceof FeedFetchError) return reject(error);
      if (PRIVATE_MESSAGE.test(error.message))
        return reject(
          new FeedFetchError(
            'The calendar address leads to a private network address, which is not allowed.',
          ),
        );
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
        return reject(new FeedFetchError("The calendar address's server could not be found."));
      reject(new FeedFetchError('The calendar address could not be reached.'));
    });
  });
}

const MB = 1024 * 1024;
const tooLarge = ({ maxBytes }: FeedFetchPolicy) =>
  new FeedFetchError(
    `The calendar is larger than ${maxBytes >= MB ? `${Math.round(maxBytes / MB)} MB` : `${Math.round(maxBytes / 1024)} kB`}, the most that is read.`,
  );

/** The feed's text, following up to FEED_LIMITS.maxRedirects redirects, each checked as the first address. */
export async function fetchFeed(pasted: string, policy: FeedFetchPolicy): Promise<string> {
  let url: URL;
  try {
    url = feedRequestUrl(pasted);
  } catch {
    throw new FeedFetchError('The calendar address is not a web address.');
  }
  const deadline = Date.now() + policy.timeoutMs;
  const loaded = await client();
  for (let hop = 0; hop <= FEED_LIMITS.maxRedirects; hop += 1) {
    const scheme = refusedScheme(url, policy);
    if (scheme)
      throw new FeedFetchError(
        hop === 0 ? scheme : 'The calendar address redirects to an address that is not https.',
      );
    const answer = await fetchOnce(loaded, url, policy, deadline);
    if ('body' in answer) return answer.body;
    try {
      url = feedRequestUrl(new URL(answer.redirect, url).toString());
    } catch {
      throw new FeedFetchError('The calendar address redirects to an address that is not valid.');
    }
  }
  throw new FeedFetchError('The calendar address redirects too many times.');
}
