/**
 * The adapter between the SDK and the state machine: it turns SDK events into machine events,
 * runs the machine's effects (start, stop, toasts, the end-of-call timer) and reports every
 * state change. It holds no React; `use-voice-simulator.ts` wires it to a component.
 */
import {
  END_OF_CALL_FALLBACK_MS,
  initialVoiceState,
  pressIntent,
  reduce,
  type VoiceEffect,
  type VoiceEvent,
  type VoiceState,
  type VoiceToast,
} from './voice-machine';
import {
  START_OVERRIDES,
  type VoiceClient,
  type VoiceClientEvents,
  type VoiceClientListener,
} from './vapi-client';

export type VoiceConfig = { publicKey?: string; assistantId?: string };

export type VoiceControllerOptions = {
  config: VoiceConfig;
  loadClient: (publicKey: string) => Promise<VoiceClient>;
  notify: (toast: VoiceToast) => void;
  onChange: (state: VoiceState) => void;
  endOfCallFallbackMs?: number;
};

export type VoiceController = {
  /** Loads the SDK (when configured) and moves from initializing to ready. */
  init(): Promise<void>;
  /** The mic button: starts or stops a call, or explains why it cannot. */
  press(): void;
  getState(): VoiceState;
  /** Unmount: stops a running call and detaches from the SDK. */
  dispose(): void;
};

export function isVoiceConfigured(config: VoiceConfig): config is Required<VoiceConfig> {
  return Boolean(config.publicKey && config.assistantId);
}

/**
 * `error` events that are not the end of a call. Start-stage errors are each followed by
 * `call-start-failed` or a rejected `start()`, which say the same; audio processing, autoplay,
 * observers and recording setup fail without stopping the call (the SDK carries on).
 */
const NOT_FATAL = new Set([
  'start-method-error',
  'daily-call-join-error',
  'daily-call-object-creation-error',
  'validation-error',
  'audio-processing-setup-error',
  'audio-processor-recovery-error',
  'audio-observer-setup-error',
  'audio-start-failed',
  'video-recording-setup-error',
]);

export function isFatalSdkError(error: unknown): boolean {
  const type = error !== null && typeof error === 'object' ? (error as { type?: unknown }).type : undefined;
  return !(typeof type === 'string' && NOT_FATAL.has(type));
}

export function createVoiceController(options: VoiceControllerOptions): VoiceController {
  const { config, loadClient, notify, onChange } = options;
  const fallbackMs = options.endOfCallFallbackMs ?? END_OF_CALL_FALLBACK_MS;
  let state = initialVoiceState(isVoiceConfigured(config));
  let client: VoiceClient | null = null;
  let disposed = false;
  let endTimer: ReturnType<typeof setTimeout> | undefined;
  const queue: VoiceEvent[] = [];
  let draining = false;

  // SDK calls made by effects may emit events synchronously; queuing keeps every event
  // reduced after the effects of the one before it, in order.
  function dispatch(event: VoiceEvent): void {
    if (disposed) return;
    queue.push(event);
    if (draining) return;
    draining = true;
    try {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const result = reduce(state, next);
        if (result.state !== state) {
          state = result.state;
          onChange(state);
        }
        for (const effect of result.effects) run(effect);
      }
    } finally {
      draining = false;
    }
  }

  function run(effect: VoiceEffect): void {
    switch (effect.type) {
      case 'toast':
        notify(effect.toast);
        return;
      case 'start':
        void startCall();
        return;
      case 'stop':
        void stopCall();
        return;
      case 'arm-end-timer':
        clearTimeout(endTimer);
        endTimer = setTimeout(() => dispatch({ type: 'end-timeout' }), fallbackMs);
        return;
      case 'clear-end-timer':
        clearTimeout(endTimer);
        endTimer = undefined;
        return;
    }
  }

  async function startCall(): Promise<void> {
    if (!client || !config.assistantId) {
      dispatch({ type: 'start-settled', outcome: 'rejected', error: undefined });
      return;
    }
    try {
      // Resolves after the web call is created and Daily joined, or null after `call-start-failed`.
      const started = client;
      const call = await started.start(config.assistantId, START_OVERRIDES);
      // Unmounted while the call was being created: it must not run on unseen.
      if (disposed && call) started.stop().catch(() => {});
      dispatch({ type: 'start-settled', outcome: call ? 'call' : 'null' });
    } catch (error) {
      dispatch({ type: 'start-settled', outcome: 'rejected', error });
    }
  }

  async function stopCall(): Promise<void> {
    if (!client || typeof client.stop !== 'function') {
      dispatch({ type: 'stop-unavailable' });
      return;
    }
    try {
      await client.stop();
      dispatch({ type: 'stop-settled' });
    } catch (error) {
      dispatch({ type: 'stop-failed', error });
    }
  }

  const listeners: { [E in keyof VoiceClientEvents]: VoiceClientListener<E> } = {
    'call-start': () => dispatch({ type: 'call-start' }),
    'call-end': () => dispatch({ type: 'call-end' }),
    'volume-level': (level) => dispatch({ type: 'volume', level }),
    'speech-start': () => dispatch({ type: 'speech', speaking: true }),
    'speech-end': () => dispatch({ type: 'speech', speaking: false }),
    'call-start-failed': (event) => dispatch({ type: 'call-start-failed', error: event?.error }),
    error: (error) => {
      if (isFatalSdkError(error)) dispatch({ type: 'sdk-error', error });
    },
  };

  const events = Object.keys(listeners) as (keyof VoiceClientEvents)[];

  function attach(target: VoiceClient): void {
    for (const event of events) target.on(event, listeners[event] as VoiceClientListener<typeof event>);
  }

  function detach(target: VoiceClient): void {
    for (const event of events)
      target.removeListener(event, listeners[event] as VoiceClientListener<typeof event>);
  }

  return {
    async init() {
      onChange(state);
      if (!isVoiceConfigured(config) || client) return;
      try {
        const loaded = await loadClient(config.publicKey);
        if (disposed) return;
        client = loaded;
        attach(loaded);
        dispatch({ type: 'sdk-ready' });
      } catch (error) {
        dispatch({ type: 'sdk-failed', error });
      }
    },
    press() {
      dispatch({ type: pressIntent(state) === 'stop' ? 'stop-pressed' : 'start-pressed' });
    },
    getState: () => state,
    dispose() {
      if (disposed) return;
      const active =
        state.phase === 'connecting' ||
        state.phase === 'in-call' ||
        state.phase === 'ending' ||
        state.startPending;
      disposed = true;
      clearTimeout(endTimer);
      if (client) {
        detach(client);
        // Leaving the page must not leave the microphone open.
        if (active) client.stop().catch(() => {});
      }
    },
  };
}
