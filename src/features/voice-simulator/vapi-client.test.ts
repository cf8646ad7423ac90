/**
 * The real @vapi-ai/web module, loaded in Node, driven by the controller. Only `fetch` is
 * stubbed: the provider answers 401 to the web call, as it does for a wrong key.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createVapiClient } from './vapi-client';
import { createVoiceController } from './voice-controller';
import type { VoiceToast } from './voice-machine';

const INVALID_KEY = {
  message: 'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.',
  error: 'Unauthorized',
  statusCode: 401,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the adapter on the real SDK', () => {
  it('constructing the client makes no network call', async () => {
    const fetchStub = vi.fn();
    vi.stubGlobal('fetch', fetchStub);
    await createVapiClient('pk-any');
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it('a 401 from POST /call/web ends in Failed to start call: {message}', async () => {
    const requests: { url: string; method?: string; headers: Record<string, string>; body: unknown }[] = [];
    vi.stubGlobal('fetch', async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = String(input);
      requests.push({
        url,
        method: init.method,
        headers: init.headers as Record<string, string>,
        body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      });
      if (url === 'https://api.vapi.ai/call/web') {
        return new Response(JSON.stringify(INVALID_KEY), {
          status: 401,
          headers: { 'content-type': 'application/json' },
        });
      }
      return new Response('unexpected request', { status: 500 });
    });

    const toasts: VoiceToast[] = [];
    const statuses: string[] = [];
    const controller = createVoiceController({
      config: { publicKey: 'pk-wrong', assistantId: 'assistant-elliot' },
      loadClient: createVapiClient,
      notify: (t) => toasts.push(t),
      onChange: (s) => {
        if (statuses.at(-1) !== s.status) statuses.push(s.status);
      },
    });
    await controller.init();
    expect(controller.getState().phase).toBe('ready');
    controller.press();
    await vi.waitFor(() => expect(controller.getState().phase).toBe('error'));
    await vi.waitFor(() => expect(controller.getState().startPending).toBe(false));

    expect(requests).toEqual([
      {
        url: 'https://api.vapi.ai/call/web',
        method: 'POST',
        headers: { Authorization: 'Bearer pk-wrong', 'Content-Type': 'application/json' },
        body: {
          assistantId: 'assistant-elliot',
          assistantOverrides: { artifactPlan: { videoRecordingEnabled: false } },
        },
      },
    ]);
    const reason =
      'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa';
    expect(statuses).toEqual([
      'Loading the AI simulator...',
      'Press the mic to start.',
      'Connecting to AI...',
      `Failed to start call: ${reason}. Please try again.`,
    ]);
    expect(controller.getState().errorText).toBe(`Failed to start call: ${reason}`);
    expect(toasts).toEqual([
      { title: 'Error', description: `Failed to start call: ${reason}`, variant: 'destructive' },
    ]);
  });
});
