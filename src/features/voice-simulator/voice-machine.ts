/**
 * The voice simulator as a pure state machine: `reduce(state, event)` returns the next state
 * and the effects to run (SDK calls, toasts, the end-of-call timer). It knows nothing of the
 * SDK or React; `voice-controller.ts` feeds it SDK events and runs its effects.
 * Spec section 4 (voice simulator) and section 8 (the simulator rows) are the contract.
 */
import { voiceButtonLabel, voiceErrorText, voiceStatus, voiceToast } from '~/content/voice-simulator';

export type VoicePhase =
  /** No key or assistant id was built in: the SDK is never loaded. */
  'unavailable' | 'initializing' | 'ready' | 'connecting' | 'in-call' | 'ending' | 'error';

export type VoiceState = {
  readonly phase: VoicePhase;
  readonly status: string;
  readonly errorText: string | null;
  /**
   * `start()` was called and has not settled. A stop pressed meanwhile does not cancel the
   * web call being created, so the call must be stopped again once `start()` settles.
   */
  readonly startPending: boolean;
  /** The assistant's output level, 0 to 1, while in a call (the SDK's `volume-level`). */
  readonly volume: number;
  /** The assistant is talking, as the SDK's own speech detection reports it. */
  readonly speaking: boolean;
};

/** How `start()` settled: with a call, with `null` (the SDK reports failures this way), or rejected. */
export type StartOutcome = 'call' | 'null' | 'rejected';

export type VoiceEvent =
  | { type: 'sdk-ready' }
  | { type: 'sdk-failed'; error: unknown }
  | { type: 'start-pressed' }
  | { type: 'stop-pressed' }
  | { type: 'start-settled'; outcome: StartOutcome; error?: unknown }
  | { type: 'call-start' }
  | { type: 'call-start-failed'; error: unknown }
  | { type: 'call-end' }
  | { type: 'sdk-error'; error: unknown }
  | { type: 'stop-settled' }
  | { type: 'stop-failed'; error: unknown }
  | { type: 'stop-unavailable' }
  | { type: 'end-timeout' }
  | { type: 'volume'; level: number }
  | { type: 'speech'; speaking: boolean };

export type VoiceToast = { title: string; description: string; variant: 'default' | 'destructive' };

export type VoiceEffect =
  | { type: 'start' }
  | { type: 'stop' }
  | { type: 'toast'; toast: VoiceToast }
  | { type: 'arm-end-timer' }
  | { type: 'clear-end-timer' };

export type Transition = { state: VoiceState; effects: VoiceEffect[] };

/**
 * How long to wait for `call-end` after a stop. After a fatal Daily error the SDK may never
 * emit it, and the spec blocks every new start until the previous call has ended.
 */
export const END_OF_CALL_FALLBACK_MS = 3000;

export function initialVoiceState(configured: boolean): VoiceState {
  return configured
    ? {
        phase: 'initializing',
        status: voiceStatus.initializing,
        errorText: null,
        startPending: false,
        volume: 0,
        speaking: false,
      }
    : {
        phase: 'unavailable',
        status: voiceStatus.unavailable,
        errorText: null,
        startPending: false,
        volume: 0,
        speaking: false,
      };
}

/** Keys under which the SDK, Daily and the API put a readable message, in order of preference. */
const MESSAGE_KEYS = ['message', 'errorMsg', 'msg', 'error', 'reason'] as const;
const MAX_MESSAGE_LENGTH = 300;

function readable(value: unknown, depth: number): string | undefined {
  if (depth > 5) return undefined;
  if (typeof value === 'string') {
    const text = value.trim();
    // The SDK stringifies error objects that lack a message: read the JSON rather than show it.
    if (/^[[{]/.test(text)) {
      try {
        return readable(JSON.parse(text), depth + 1);
      } catch {
        return text;
      }
    }
    return text || undefined;
  }
  if (Array.isArray(value)) {
    const parts = value.map((v) => readable(v, depth + 1)).filter((p): p is string => p !== undefined);
    return parts.length > 0 ? parts.join(', ') : undefined;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of MESSAGE_KEYS) {
      const text = readable(record[key], depth + 1);
      if (text) return text;
    }
  }
  return undefined;
}

/**
 * Any error the SDK hands over, as one readable sentence. `call-start-failed.error` is
 * sometimes the API's JSON body (`{message, error, statusCode}`) rather than a string, and the
 * `error` event nests the real message one or two levels down.
 */
export function errorMessage(error: unknown): string {
  const text = readable(error, 0);
  if (!text) return voiceErrorText.unknown;
  return text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : text;
}

/** A message placed inside a spec template that adds its own full stop ('{message}. Please ...'). */
function clause(message: string): string {
  return message.replace(/[.\s]+$/, '') || message;
}

function toast(
  text: { title: string; description: string },
  variant: VoiceToast['variant'] = 'default',
): VoiceEffect {
  return { type: 'toast', toast: { title: text.title, description: text.description, variant } };
}

const stay = (state: VoiceState): Transition => ({ state, effects: [] });

function ended(state: VoiceState): Transition {
  return {
    state: { ...state, phase: 'ready', status: voiceStatus.ended, volume: 0, speaking: false },
    effects: [{ type: 'clear-end-timer' }, toast(voiceToast.callEnded)],
  };
}

function startFailed(state: VoiceState, error: unknown, startPending: boolean): Transition {
  const message = clause(errorMessage(error));
  const errorText = voiceErrorText.startFailed(message);
  return {
    state: {
      ...state,
      phase: 'error',
      errorText,
      status: voiceStatus.startFailed(message),
      startPending,
      volume: 0,
      speaking: false,
    },
    effects: [toast(voiceToast.failed(errorText), 'destructive')],
  };
}

/** A previous call is still being torn down: the SDK must not be asked to start another. */
function stopUnderWay(state: VoiceState): boolean {
  return state.phase === 'ending' || (state.phase === 'ready' && state.startPending);
}

export function reduce(state: VoiceState, event: VoiceEvent): Transition {
  switch (event.type) {
    case 'sdk-ready':
      if (state.phase !== 'initializing') return stay(state);
      return { state: { ...state, phase: 'ready', status: voiceStatus.ready }, effects: [] };

    case 'sdk-failed': {
      if (state.phase !== 'initializing') return stay(state);
      const errorText = voiceErrorText.initFailed(clause(errorMessage(event.error)));
      return {
        state: { ...state, phase: 'error', errorText, status: voiceStatus.initFailed },
        effects: [toast(voiceToast.failed(errorText), 'destructive')],
      };
    }

    case 'start-pressed':
      if (state.phase === 'unavailable')
        return { state, effects: [toast(voiceToast.notReady, 'destructive')] };
      if (stopUnderWay(state)) return { state, effects: [toast(voiceToast.pleaseWait)] };
      if (state.phase === 'initializing') return { state, effects: [toast(voiceToast.warmingUp)] };
      if (state.phase === 'error') {
        return {
          state,
          effects: [
            toast(voiceToast.cannotStart(clause(state.errorText ?? voiceErrorText.unknown)), 'destructive'),
          ],
        };
      }
      if (state.phase !== 'ready') return stay(state);
      return {
        state: {
          ...state,
          phase: 'connecting',
          status: voiceStatus.connecting,
          errorText: null,
          startPending: true,
        },
        effects: [{ type: 'start' }],
      };

    case 'stop-pressed':
      if (state.phase === 'ending') return { state, effects: [toast(voiceToast.duplicateStop)] };
      if (state.phase !== 'connecting' && state.phase !== 'in-call') return stay(state);
      return {
        state: { ...state, phase: 'ending', status: voiceStatus.ending, volume: 0, speaking: false },
        effects: [{ type: 'arm-end-timer' }, { type: 'stop' }],
      };

    case 'start-settled': {
      if (!state.startPending) return stay(state);
      const settled = { ...state, startPending: false };
      if (state.phase === 'connecting') {
        // With a call, the assistant reports `call-start` later, when it is listening.
        if (event.outcome === 'call') return stay(settled);
        // The SDK resolves null after reporting `call-start-failed`; reaching here means it did not.
        return startFailed(settled, event.error, false);
      }
      // The call was stopped or failed while it was being created: a call that came up anyway must go.
      return { state: settled, effects: event.outcome === 'call' ? [{ type: 'stop' }] : [] };
    }

    case 'call-start':
      if (state.phase !== 'connecting') return stay(state);
      return { state: { ...state, phase: 'in-call', status: voiceStatus.inCall }, effects: [] };

    case 'call-start-failed':
      if (state.phase === 'connecting') return startFailed(state, event.error, state.startPending);
      // A Daily error may arrive just before the start failure it causes: the start failure says more.
      if (state.phase === 'error' && state.startPending) return startFailed(state, event.error, true);
      return stay(state);

    case 'call-end':
      if (state.phase === 'connecting' || state.phase === 'in-call' || state.phase === 'ending')
        return ended(state);
      return stay(state);

    case 'sdk-error':
      if (state.phase !== 'connecting' && state.phase !== 'in-call') return stay(state);
      return {
        state: {
          ...state,
          phase: 'error',
          errorText: errorMessage(event.error),
          status: voiceStatus.error,
          volume: 0,
          speaking: false,
        },
        // Tear the call down: after a fatal error the microphone would otherwise stay open.
        effects: [{ type: 'stop' }],
      };

    case 'stop-settled':
      // `call-end` (or the fallback timer) finishes the stop.
      return stay(state);

    case 'stop-failed':
      if (state.phase !== 'ending') return stay(state);
      return {
        state: { ...state, phase: 'ready', status: voiceStatus.stopFailed, volume: 0, speaking: false },
        effects: [
          { type: 'clear-end-timer' },
          toast(voiceToast.stopFailed(errorMessage(event.error)), 'destructive'),
        ],
      };

    case 'stop-unavailable':
      if (state.phase !== 'ending') return stay(state);
      return {
        state: { ...state, phase: 'ready', status: voiceStatus.stopUnavailable, volume: 0, speaking: false },
        effects: [{ type: 'clear-end-timer' }],
      };

    case 'end-timeout':
      if (state.phase !== 'ending') return stay(state);
      return ended(state);

    case 'volume': {
      if (state.phase !== 'in-call') return stay(state);
      const level = Number.isFinite(event.level) ? Math.min(1, Math.max(0, event.level)) : 0;
      return level === state.volume ? stay(state) : { state: { ...state, volume: level }, effects: [] };
    }

    case 'speech':
      if (state.phase !== 'in-call' || state.speaking === event.speaking) return stay(state);
      return { state: { ...state, speaking: event.speaking }, effects: [] };
  }
}

/** What the mic button means in this state. */
export function pressIntent(state: VoiceState): 'start' | 'stop' {
  return state.phase === 'connecting' || state.phase === 'in-call' || state.phase === 'ending'
    ? 'stop'
    : 'start';
}

export function buttonLabel(state: VoiceState): string {
  switch (state.phase) {
    case 'initializing':
      return voiceButtonLabel.initializing;
    case 'ending':
      return voiceButtonLabel.ending;
    case 'connecting':
    case 'in-call':
      return voiceButtonLabel.stop;
    default:
      return voiceButtonLabel.start;
  }
}

/** The spec disables the button while initializing, stopping, or in an error state. */
export function buttonDisabled(state: VoiceState): boolean {
  return state.phase === 'initializing' || state.phase === 'ending' || state.phase === 'error';
}

/** The spec's UI values (section 3), derived from the one state. */
export function uiValues(state: VoiceState) {
  return {
    inCall: state.phase === 'in-call',
    initializing: state.phase === 'initializing',
    stopping: state.phase === 'ending',
    errorText: state.errorText,
    status: state.status,
  };
}
