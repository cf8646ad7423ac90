import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeVapi, type FakeApiAnswer, type FakeVapiOptions } from './fake-vapi';
import { createVoiceController, isFatalSdkError, type VoiceConfig } from './voice-controller';
import type { VoiceState, VoiceToast } from './voice-machine';

const CONFIG: VoiceConfig = { publicKey: 'pk-test', assistantId: 'assistant-elliot' };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Lets the fake's awaited steps (API answer, join, destroy) run. */
const settle = () => new Promise<void>((r) => setTimeout(r, 0));

function setup(options: FakeVapiOptions = {}, config: VoiceConfig = CONFIG) {
  const sdk = new FakeVapi(config.publicKey ?? '', options);
  const toasts: VoiceToast[] = [];
  const states: VoiceState[] = [];
  const loadClient = vi.fn(async () => sdk);
  const controller = createVoiceController({
    config,
    loadClient,
    notify: (t) => toasts.push(t),
    onChange: (s) => states.push(s),
  });
  return { sdk, toasts, states, loadClient, controller, status: () => controller.getState().status };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('voice controller against the fake SDK: loading', () => {
  it('loads the client with the public key and becomes ready', async () => {
    const { controller, loadClient, states } = setup();
    expect(controller.getState().phase).toBe('initializing');
    await controller.init();
    expect(loadClient).toHaveBeenCalledWith('pk-test');
    expect(controller.getState().phase).toBe('ready');
    expect(states.map((s) => s.status)).toEqual(['Loading the AI simulator...', 'Press the mic to start.']);
  });

  it('without a key or assistant it never loads the SDK, and a press gives the not-ready toast', async () => {
    for (const config of [{ assistantId: 'a' }, { publicKey: 'k' }, {}]) {
      const { controller, loadClient, toasts } = setup({}, config);
      await controller.init();
      controller.press();
      expect(loadClient).not.toHaveBeenCalled();
      expect(controller.getState().phase).toBe('unavailable');
      expect(toasts).toEqual([
        { title: 'Error', description: 'AI Simulator not ready. Please refresh.', variant: 'destructive' },
      ]);
    }
  });

  it('a failed SDK load is the initialization failure', async () => {
    const toasts: VoiceToast[] = [];
    const controller = createVoiceController({
      config: CONFIG,
      loadClient: async () => {
        throw new TypeError('Failed to fetch dynamically imported module');
      },
      notify: (t) => toasts.push(t),
      onChange: () => {},
    });
    await controller.init();
    expect(controller.getState().status).toBe('Initialization failed. Please refresh the page.');
    expect(controller.getState().errorText).toBe(
      'Failed to initialize AI simulator: Failed to fetch dynamically imported module',
    );
    expect(toasts).toHaveLength(1);
  });
});

describe('voice controller against the fake SDK: a call', () => {
  it('a full call: start with the assistant and video recording off, call-start, meter, stop, call-end', async () => {
    vi.useFakeTimers();
    const { controller, sdk, toasts, status } = setup();
    await controller.init();
    controller.press();
    expect(status()).toBe('Connecting to AI...');
    await vi.advanceTimersByTimeAsync(0);
    expect(sdk.startCalls).toEqual([
      {
        assistantId: 'assistant-elliot',
        assistantOverrides: { artifactPlan: { videoRecordingEnabled: false } },
      },
    ]);
    expect(sdk.lastVideoSource).toBe(false);
    // start() has resolved, but the assistant is not listening yet.
    expect(status()).toBe('Connecting to AI...');
    sdk.assistantListening();
    expect(status()).toBe('Call started. You may speak now.');

    sdk.remoteAudioLevel([0.03, 0.03]);
    expect(controller.getState().volume).toBeCloseTo(0.4);
    expect(controller.getState().speaking).toBe(true);
    await vi.advanceTimersByTimeAsync(1000);
    expect(controller.getState().speaking).toBe(false);

    controller.press();
    expect(status()).toBe('Ending call...');
    controller.press();
    await vi.advanceTimersByTimeAsync(0);
    expect(sdk.stopCalls).toBe(1);
    expect(status()).toBe('Call ended. Click the mic to talk again.');
    expect(toasts).toEqual([
      { title: 'Processing', description: 'Call termination is already underway.', variant: 'default' },
      { title: 'Call Ended', description: 'The conversation has finished.', variant: 'default' },
    ]);
    // The fallback timer was cleared by the real call-end: no second toast.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(toasts).toHaveLength(2);
  });

  it('a 401 from the web call ends in Failed to start call: {message}, with one toast', async () => {
    const { controller, toasts, status, sdk } = setup({
      respond: async () => ({
        status: 401,
        body: {
          message:
            'Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa.',
          error: 'Unauthorized',
          statusCode: 401,
        },
      }),
    });
    await controller.init();
    controller.press();
    await settle();
    expect(status()).toBe(
      'Failed to start call: Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa. Please try again.',
    );
    expect(controller.getState().startPending).toBe(false);
    expect(toasts).toEqual([
      {
        title: 'Error',
        description:
          'Failed to start call: Invalid Key. Hot tip, you may be using the private key instead of the public key, or vice versa',
        variant: 'destructive',
      },
    ]);
    // The error listener kept the SDK consistent: it is not stuck "starting".
    expect(sdk.isStarted).toBe(false);
    controller.press();
    expect(toasts.at(-1)?.description).toMatch(
      /^Cannot start call: Failed to start call: Invalid Key.*\. Please refresh\.$/,
    );
  });

  it('a failed Daily join fails the start once, not as a generic error', async () => {
    const { controller, toasts, status } = setup({
      join: async () => Promise.reject(new Error('Meeting not found')),
    });
    await controller.init();
    controller.press();
    await settle();
    expect(status()).toBe('Failed to start call: Meeting not found. Please try again.');
    expect(toasts).toHaveLength(1);
  });
});

describe('voice controller against the fake SDK: stopping, errors and unmounting', () => {
  it('stop while the web call is pending: stops now, and again when start() settles', async () => {
    const answer = deferred<FakeApiAnswer>();
    const { controller, sdk, status, toasts } = setup({ respond: () => answer.promise });
    await controller.init();
    controller.press();
    controller.press();
    expect(status()).toBe('Ending call...');
    await settle();
    expect(sdk.stopCalls).toBe(1);
    // The SDK did not cancel the pending request: it goes on to join once answered.
    answer.resolve({ status: 201, body: { id: 'c', webCallUrl: 'https://x.daily.co/r' } });
    await settle();
    expect(sdk.stopCalls).toBe(2);
    expect(sdk.isStarted).toBe(false);
    expect(status()).toBe('Call ended. Click the mic to talk again.');
    expect(toasts.map((t) => t.title)).toEqual(['Call Ended']);
  });

  it('when call-end never comes after a stop, the fallback timer ends the call', async () => {
    vi.useFakeTimers();
    const { controller, sdk, status, toasts } = setup({ leaveEmitsCallEnd: false });
    await controller.init();
    controller.press();
    await vi.advanceTimersByTimeAsync(0);
    sdk.assistantListening();
    controller.press();
    await vi.advanceTimersByTimeAsync(2999);
    expect(status()).toBe('Ending call...');
    await vi.advanceTimersByTimeAsync(1);
    expect(status()).toBe('Call ended. Click the mic to talk again.');
    expect(toasts.map((t) => t.title)).toEqual(['Call Ended']);
    controller.press();
    expect(status()).toBe('Connecting to AI...');
  });

  it('a fatal Daily error in a call sets the error and tears the call down, without waiting for call-end', async () => {
    const { controller, sdk, status } = setup({ leaveEmitsCallEnd: false });
    await controller.init();
    controller.press();
    await settle();
    sdk.assistantListening();
    sdk.dailyFatalError({ errorMsg: 'Meeting has ended' });
    expect(status()).toBe('An error occurred. Please try again.');
    expect(controller.getState().errorText).toBe('Meeting has ended');
    await settle();
    expect(sdk.stopCalls).toBe(1);
  });

  it('non-fatal SDK errors (noise cancellation, autoplay) do not end the call', async () => {
    const { controller, sdk, status } = setup();
    await controller.init();
    controller.press();
    await settle();
    sdk.assistantListening();
    sdk.emit('error', {
      type: 'audio-processing-setup-error',
      error: { message: 'KrispInitError: Canceled' },
    });
    sdk.emit('error', { type: 'audio-start-failed', error: { message: 'NotAllowedError' } });
    expect(status()).toBe('Call started. You may speak now.');
    expect(isFatalSdkError({ type: 'daily-error' })).toBe(true);
    expect(isFatalSdkError('a bare string')).toBe(true);
  });

  it('a failing stop(): Error Stopping Call, then ready for a new call', async () => {
    const { controller, sdk, status, toasts } = setup({ stopError: new Error('destroy failed') });
    await controller.init();
    controller.press();
    await settle();
    sdk.assistantListening();
    controller.press();
    await settle();
    expect(status()).toBe('Error ending call. Ready for a new call.');
    expect(toasts).toEqual([
      { title: 'Error Stopping Call', description: 'destroy failed', variant: 'destructive' },
    ]);
  });

  it('unmounting mid-call stops the call and detaches every listener', async () => {
    const { controller, sdk } = setup();
    await controller.init();
    controller.press();
    await settle();
    sdk.assistantListening();
    controller.dispose();
    await settle();
    expect(sdk.stopCalls).toBe(1);
    for (const event of [
      'call-start',
      'call-end',
      'volume-level',
      'speech-start',
      'speech-end',
      'call-start-failed',
      'error',
    ]) {
      expect(sdk.listenerCount(event)).toBe(0);
    }
  });

  it('unmounting while the web call is pending stops the call that comes up afterwards', async () => {
    const answer = deferred<FakeApiAnswer>();
    const { controller, sdk } = setup({ respond: () => answer.promise });
    await controller.init();
    controller.press();
    controller.dispose();
    answer.resolve({ status: 201, body: { id: 'c', webCallUrl: 'https://x.daily.co/r' } });
    await settle();
    expect(sdk.stopCalls).toBe(2);
    expect(sdk.isStarted).toBe(false);
  });
});

describe('the fake keeps the SDK behaviours the controller relies on', () => {
  it('without an error listener a failed start rejects and leaves the SDK refusing later starts', async () => {
    const sdk = new FakeVapi('pk', {
      respond: async () => ({ status: 401, body: { message: 'Invalid Key' } }),
    });
    await expect(sdk.start('a')).rejects.toThrow(/Unhandled error/);
    expect(sdk.isStarted).toBe(true);
    await expect(sdk.start('a')).resolves.toBeNull();
  });

  it('start() without a target throws the SDK error', async () => {
    const sdk = new FakeVapi('pk');
    sdk.on('error', () => {});
    await expect(sdk.start()).rejects.toThrow('Assistant or Squad or Workflow must be provided.');
  });
});
