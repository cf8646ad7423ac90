/**
 * The part of the `@vapi-ai/web` SDK the simulator uses, and the one place that loads it.
 * The SDK (with Daily inside it, about 83 KB gzip) is imported only when the AI page mounts,
 * so no other page downloads it; the type import below costs nothing at run time.
 */
import type Vapi from '@vapi-ai/web';

/** The SDK events the simulator listens to, with their arguments. */
export type VoiceClientEvents = {
  'call-start': [];
  'call-end': [];
  'volume-level': [volume: number];
  'speech-start': [];
  'speech-end': [];
  'call-start-failed': [event: { error?: unknown }];
  error: [error: unknown];
};

export type VoiceClientListener<E extends keyof VoiceClientEvents> = (...args: VoiceClientEvents[E]) => void;

/** What the controller needs from the SDK; the real `Vapi` class and the test fake both fit. */
export interface VoiceClient {
  on<E extends keyof VoiceClientEvents>(event: E, listener: VoiceClientListener<E>): unknown;
  removeListener<E extends keyof VoiceClientEvents>(event: E, listener: VoiceClientListener<E>): unknown;
  start(assistantId: string, overrides?: StartOverrides): Promise<unknown>;
  stop(): Promise<void>;
}

/** The second argument of `Vapi.start`, as the SDK types it. */
export type StartOverrides = NonNullable<Parameters<Vapi['start']>[1]>;

/**
 * Keeps the call audio-only: when the assistant has video recording enabled the SDK turns the
 * camera on (`videoSource` follows `artifactPlan.videoRecordingEnabled` of the web call).
 */
export const START_OVERRIDES: StartOverrides = { artifactPlan: { videoRecordingEnabled: false } };

type VapiConstructor = new (...args: ConstructorParameters<typeof Vapi>) => Vapi;

/** The SDK is CommonJS: bundlers hand over the class, Node's ESM loader the exports object. */
function vapiClass(mod: unknown): VapiConstructor {
  const outer = (mod as { default?: unknown }).default;
  if (typeof outer === 'function') return outer as VapiConstructor;
  const inner = (outer as { default?: unknown } | undefined)?.default;
  if (typeof inner === 'function') return inner as VapiConstructor;
  throw new Error('The voice SDK module has no Vapi class.');
}

/** Loads the SDK and makes a new client. It makes no network call: a bad key only fails at start. */
export async function createVapiClient(publicKey: string): Promise<VoiceClient> {
  const Client = vapiClass(await import('@vapi-ai/web'));
  // avoidEval: Daily loads its call machine with a <script> tag from its CDN instead of
  // fetch + Function(), so the AI pages need no 'unsafe-eval'.
  const vapi = new Client(publicKey, undefined, { avoidEval: true });
  // Without an 'error' listener the SDK's emitter throws inside start(), leaving the SDK
  // believing a call is still starting and refusing every later start. This one stays for
  // the instance's lifetime; the simulator adds and removes its own.
  vapi.on('error', () => {});
  return {
    // The SDK types its listeners per event name with a union TypeScript cannot narrow
    // through a generic; the event names and arguments are the same.
    on: (event, listener) => vapi.on(event, listener as never),
    removeListener: (event, listener) => vapi.removeListener(event, listener as never),
    start: (assistantId, overrides) => vapi.start(assistantId, overrides),
    stop: () => vapi.stop(),
  };
}

let shared: Promise<VoiceClient> | undefined;

/** One client for the page's lifetime, whatever remounts the simulator. */
export function loadVapiClient(publicKey: string): Promise<VoiceClient> {
  if (!shared) {
    const loading = createVapiClient(publicKey);
    shared = loading;
    // A failed chunk load must not stick: a later mount tries again.
    loading.catch(() => {
      if (shared === loading) shared = undefined;
    });
  }
  return shared;
}
