import { describe, expect, it } from 'vitest';
import {
  buttonDisabled,
  buttonLabel,
  errorMessage,
  initialVoiceState,
  pressIntent,
  reduce,
  uiValues,
  type VoiceEffect,
  type VoiceEvent,
  type VoiceState,
} from './voice-machine';

/** Applies events in order; returns the last state and the effects of the last event. */
function after(events: VoiceEvent[], from: VoiceState = initialVoiceState(true)) {
  let state = from;
  let effects: VoiceEffect[] = [];
  for (const event of events) ({ state, effects } = reduce(state, event));
  return { state, effects };
}

const toasts = (effects: VoiceEffect[]) => effects.flatMap((e) => (e.type === 'toast' ? [e.toast] : []));

const ready: VoiceEvent[] = [{ type: 'sdk-ready' }];
const connecting: VoiceEvent[] = [...ready, { type: 'start-pressed' }];
const inCall: VoiceEvent[] = [
  ...connecting,
  { type: 'start-settled', outcome: 'call' },
  { type: 'call-start' },
];
const ending: VoiceEvent[] = [...inCall, { type: 'stop-pressed' }];

describe('voice machine: the happy path of spec section 4', () => {
  it('starts initializing: label Initializing..., disabled, no error', () => {
    const state = initialVoiceState(true);
    expect(state.phase).toBe('initializing');
    expect(buttonLabel(state)).toBe('Initializing...');
    expect(buttonDisabled(state)).toBe(true);
    expect(uiValues(state)).toEqual({
      inCall: false,
      initializing: true,
      stopping: false,
      errorText: null,
      status: state.status,
    });
  });

  it('becomes ready with "Press the mic to start." once the SDK has loaded', () => {
    const { state, effects } = after(ready);
    expect(state.phase).toBe('ready');
    expect(state.status).toBe('Press the mic to start.');
    expect(buttonLabel(state)).toBe('Click to talk with Elliot');
    expect(buttonDisabled(state)).toBe(false);
    expect(pressIntent(state)).toBe('start');
    expect(effects).toEqual([]);
  });

  it('pressing start moves to connecting and starts the call', () => {
    const { state, effects } = after(connecting);
    expect(state.phase).toBe('connecting');
    expect(state.status).toBe('Connecting to AI...');
    expect(state.startPending).toBe(true);
    expect(effects).toEqual([{ type: 'start' }]);
    // A connecting call can be cancelled: the button stops it.
    expect(buttonLabel(state)).toBe('Click to stop');
    expect(buttonDisabled(state)).toBe(false);
    expect(pressIntent(state)).toBe('stop');
  });

  it('start() resolving is not the call starting: it waits for call-start', () => {
    const { state, effects } = after([...connecting, { type: 'start-settled', outcome: 'call' }]);
    expect(state.phase).toBe('connecting');
    expect(state.startPending).toBe(false);
    expect(effects).toEqual([]);
  });

  it('call-start moves to in-call: "Call started. You may speak now.", label Click to stop', () => {
    const { state } = after(inCall);
    expect(state.phase).toBe('in-call');
    expect(state.status).toBe('Call started. You may speak now.');
    expect(buttonLabel(state)).toBe('Click to stop');
    expect(buttonDisabled(state)).toBe(false);
    expect(uiValues(state).inCall).toBe(true);
  });

  it('pressing again moves to ending, stops the call and arms the end-of-call fallback', () => {
    const { state, effects } = after(ending);
    expect(state.phase).toBe('ending');
    expect(state.status).toBe('Ending call...');
    expect(buttonLabel(state)).toBe('Ending call...');
    expect(buttonDisabled(state)).toBe(true);
    expect(uiValues(state).stopping).toBe(true);
    expect(effects).toEqual([{ type: 'arm-end-timer' }, { type: 'stop' }]);
  });

  it('call-end returns to idle with the Call Ended toast', () => {
    const { state, effects } = after([...ending, { type: 'stop-settled' }, { type: 'call-end' }]);
    expect(state.phase).toBe('ready');
    expect(state.status).toBe('Call ended. Click the mic to talk again.');
    expect(buttonLabel(state)).toBe('Click to talk with Elliot');
    expect(effects).toContainEqual({ type: 'clear-end-timer' });
    expect(toasts(effects)).toEqual([
      { title: 'Call Ended', description: 'The conversation has finished.', variant: 'default' },
    ]);
  });

  it('the assistant hanging up ends an in-call call the same way', () => {
    const { state, effects } = after([...inCall, { type: 'call-end' }]);
    expect(state.phase).toBe('ready');
    expect(state.status).toBe('Call ended. Click the mic to talk again.');
    expect(toasts(effects)).toHaveLength(1);
  });

  it('a new call can start after the previous one ended', () => {
    const { state, effects } = after([...ending, { type: 'call-end' }, { type: 'start-pressed' }]);
    expect(state.phase).toBe('connecting');
    expect(effects).toEqual([{ type: 'start' }]);
  });

  it('volume-level and speech events drive the meter only while in a call', () => {
    let { state } = after([...inCall, { type: 'volume', level: 0.4 }, { type: 'speech', speaking: true }]);
    expect(state.volume).toBe(0.4);
    expect(state.speaking).toBe(true);
    ({ state } = reduce(state, { type: 'volume', level: 7 }));
    expect(state.volume).toBe(1);
    ({ state } = reduce(state, { type: 'volume', level: Number.NaN }));
    expect(state.volume).toBe(0);
    ({ state } = after([{ type: 'volume', level: 0.9 }, { type: 'stop-pressed' }], {
      ...state,
      volume: 0.9,
    }));
    expect(state.volume).toBe(0);
    expect(state.speaking).toBe(false);
    expect(after([...ready, { type: 'volume', level: 0.5 }]).state.volume).toBe(0);
  });
});

describe('voice machine: blocked starts and the duplicate stop', () => {
  it('while initializing: Initializing / AI is warming up. Please try again shortly.', () => {
    const { state, effects } = after([{ type: 'start-pressed' }]);
    expect(state.phase).toBe('initializing');
    expect(toasts(effects)).toEqual([
      {
        title: 'Initializing',
        description: 'AI is warming up. Please try again shortly.',
        variant: 'default',
      },
    ]);
  });

  it('while a previous stop is under way: Please Wait', () => {
    const { state, effects } = after([...ending, { type: 'start-pressed' }]);
    expect(state.phase).toBe('ending');
    expect(toasts(effects)).toEqual([
      {
        title: 'Please Wait',
        description: 'Previous call is terminating. Please wait a moment.',
        variant: 'default',
      },
    ]);
    expect(effects.some((e) => e.type === 'start')).toBe(false);
  });

  it('while a cancelled start has not settled yet, even after the fallback: Please Wait', () => {
    const { state, effects } = after([
      ...connecting,
      { type: 'stop-pressed' },
      { type: 'end-timeout' },
      { type: 'start-pressed' },
    ]);
    expect(state.phase).toBe('ready');
    expect(state.startPending).toBe(true);
    expect(toasts(effects).map((t) => t.title)).toEqual(['Please Wait']);
  });

  it('after an error: Error / Cannot start call: {error}. Please refresh.', () => {
    const { state, effects } = after([
      ...inCall,
      { type: 'sdk-error', error: { message: 'Meeting has ended' } },
      { type: 'start-pressed' },
    ]);
    expect(state.phase).toBe('error');
    expect(toasts(effects)).toEqual([
      {
        title: 'Error',
        description: 'Cannot start call: Meeting has ended. Please refresh.',
        variant: 'destructive',
      },
    ]);
  });

  it('without a key or assistant: the destructive Error toast AI Simulator not ready. Please refresh.', () => {
    const unavailable = initialVoiceState(false);
    expect(unavailable.phase).toBe('unavailable');
    expect(buttonDisabled(unavailable)).toBe(false);
    expect(buttonLabel(unavailable)).toBe('Click to talk with Elliot');
    const { state, effects } = reduce(unavailable, { type: 'start-pressed' });
    expect(state).toBe(unavailable);
    expect(toasts(effects)).toEqual([
      { title: 'Error', description: 'AI Simulator not ready. Please refresh.', variant: 'destructive' },
    ]);
    // Nothing ever loads or starts it.
    expect(reduce(unavailable, { type: 'sdk-ready' }).state).toBe(unavailable);
  });

  it('a duplicate stop: Processing / Call termination is already underway.', () => {
    const { state, effects } = after([...ending, { type: 'stop-pressed' }]);
    expect(state.phase).toBe('ending');
    expect(effects).toEqual([
      {
        type: 'toast',
        toast: {
          title: 'Processing',
          description: 'Call termination is already underway.',
          variant: 'default',
        },
      },
    ]);
  });

  it('the button presses a stop while connecting, in a call or ending, and a start otherwise', () => {
    expect(pressIntent(after(ending).state)).toBe('stop');
    expect(pressIntent(after([...inCall, { type: 'sdk-error', error: 'x' }]).state)).toBe('start');
    expect(pressIntent(initialVoiceState(false))).toBe('start');
  });

  it('start and stop presses that mean nothing in a state change nothing', () => {
    for (const events of [inCall, connecting]) {
      const { state } = after(events);
      expect(reduce(state, { type: 'start-pressed' })).toEqual({ state, effects: [] });
    }
    const idle = after(ready).state;
    expect(reduce(idle, { type: 'stop-pressed' })).toEqual({ state: idle, effects: [] });
  });
});

describe('voice machine: failures of spec section 8', () => {
  it('initialization fails: Failed to initialize AI simulator: {message}', () => {
    const { state, effects } = after([
      { type: 'sdk-failed', error: new Error('Failed to fetch dynamically imported module') },
    ]);
    expect(state.phase).toBe('error');
    expect(state.errorText).toBe(
      'Failed to initialize AI simulator: Failed to fetch dynamically imported module',
    );
    expect(state.status).toBe('Initialization failed. Please refresh the page.');
    expect(buttonDisabled(state)).toBe(true);
    expect(toasts(effects)).toEqual([
      {
        title: 'Error',
        description: 'Failed to initialize AI simulator: Failed to fetch dynamically imported module',
        variant: 'destructive',
      },
    ]);
  });

  it('call-start-failed with the API body as an object: Failed to start call: {message}', () => {
    const body = {
      message: 'Invalid Key. Hot tip, you may be using the private key.',
      error: 'Unauthorized',
      statusCode: 401,
    };
    const { state, effects } = after([...connecting, { type: 'call-start-failed', error: body }]);
    expect(state.phase).toBe('error');
    expect(state.errorText).toBe(
      'Failed to start call: Invalid Key. Hot tip, you may be using the private key',
    );
    expect(state.status).toBe(
      'Failed to start call: Invalid Key. Hot tip, you may be using the private key. Please try again.',
    );
    expect(buttonDisabled(state)).toBe(true);
    expect(toasts(effects)).toEqual([
      {
        title: 'Error',
        description: 'Failed to start call: Invalid Key. Hot tip, you may be using the private key',
        variant: 'destructive',
      },
    ]);
    // start() then resolves null: nothing more happens, and the error event that follows changes nothing.
    const settled = reduce(state, { type: 'start-settled', outcome: 'null' });
    expect(settled.state.startPending).toBe(false);
    expect(settled.effects).toEqual([]);
    expect(reduce(settled.state, { type: 'sdk-error', error: 'later' }).state).toBe(settled.state);
  });

  it('a rejected start() fails the start too', () => {
    const { state, effects } = after([
      ...connecting,
      {
        type: 'start-settled',
        outcome: 'rejected',
        error: new Error('Assistant or Squad or Workflow must be provided.'),
      },
    ]);
    expect(state.status).toBe(
      'Failed to start call: Assistant or Squad or Workflow must be provided. Please try again.',
    );
    expect(toasts(effects)).toHaveLength(1);
  });

  it('start() resolving null without any failure event still fails the start, with the fallback text', () => {
    const { state } = after([...connecting, { type: 'start-settled', outcome: 'null' }]);
    expect(state.phase).toBe('error');
    expect(state.status).toBe('Failed to start call: An unknown Vapi error occurred. Please try again.');
  });

  it('a Daily error just before the start failure: the start failure replaces the generic text, once', () => {
    const first = after([...connecting, { type: 'sdk-error', error: { errorMsg: 'Meeting not found' } }]);
    expect(first.state.status).toBe('An error occurred. Please try again.');
    expect(toasts(first.effects)).toEqual([]);
    const { state, effects } = reduce(first.state, { type: 'call-start-failed', error: 'Meeting not found' });
    expect(state.status).toBe('Failed to start call: Meeting not found. Please try again.');
    expect(toasts(effects)).toHaveLength(1);
  });

  it('an error event sets the error text and status, ends the call and tears it down', () => {
    const { state, effects } = after([
      ...inCall,
      { type: 'volume', level: 0.5 },
      { type: 'sdk-error', error: { type: 'daily-error', error: { message: 'Network lost' } } },
    ]);
    expect(state.phase).toBe('error');
    expect(state.errorText).toBe('Network lost');
    expect(state.status).toBe('An error occurred. Please try again.');
    expect(uiValues(state).inCall).toBe(false);
    expect(state.volume).toBe(0);
    expect(buttonDisabled(state)).toBe(true);
    expect(effects).toEqual([{ type: 'stop' }]);
    // A late call-end does not announce a normal end.
    expect(reduce(state, { type: 'call-end' })).toEqual({ state, effects: [] });
  });

  it('error events outside a call are not the simulator failing', () => {
    const idle = after(ready).state;
    expect(reduce(idle, { type: 'sdk-error', error: 'late' }).state).toBe(idle);
    const stopping = after(ending).state;
    expect(reduce(stopping, { type: 'sdk-error', error: 'late' }).state).toBe(stopping);
  });

  it('stop fails: Error Stopping Call toast, then Error ending call. Ready for a new call.', () => {
    const { state, effects } = after([
      ...ending,
      { type: 'stop-failed', error: new Error('destroy() failed') },
    ]);
    expect(state.phase).toBe('ready');
    expect(state.status).toBe('Error ending call. Ready for a new call.');
    expect(toasts(effects)).toEqual([
      { title: 'Error Stopping Call', description: 'destroy() failed', variant: 'destructive' },
    ]);
    expect(effects).toContainEqual({ type: 'clear-end-timer' });
    expect(buttonDisabled(state)).toBe(false);
  });

  it('stop unavailable: Could not stop call (SDK issue). Ready for new call.', () => {
    const { state, effects } = after([...ending, { type: 'stop-unavailable' }]);
    expect(state.phase).toBe('ready');
    expect(state.status).toBe('Could not stop call (SDK issue). Ready for new call.');
    expect(effects).toEqual([{ type: 'clear-end-timer' }]);
  });

  it('stop results outside a stop change nothing', () => {
    const idle = after(ready).state;
    for (const event of [
      { type: 'stop-failed', error: 'x' },
      { type: 'stop-unavailable' },
      { type: 'stop-settled' },
      { type: 'end-timeout' },
    ] as const) {
      expect(reduce(idle, event).state).toBe(idle);
    }
  });
});

describe('voice machine: stop during connecting and the end-of-call fallback', () => {
  it('stop while the web call is pending stops now, and again when start() settles with a call', () => {
    const stopping = after([...connecting, { type: 'stop-pressed' }]);
    expect(stopping.state.phase).toBe('ending');
    expect(stopping.state.startPending).toBe(true);
    expect(stopping.effects).toEqual([{ type: 'arm-end-timer' }, { type: 'stop' }]);

    // The assistant comes up anyway: it is not a call the visitor still wants.
    const listening = reduce(reduce(stopping.state, { type: 'stop-settled' }).state, { type: 'call-start' });
    expect(listening.state.phase).toBe('ending');

    const settled = reduce(listening.state, { type: 'start-settled', outcome: 'call' });
    expect(settled.state.startPending).toBe(false);
    expect(settled.effects).toEqual([{ type: 'stop' }]);

    const done = reduce(settled.state, { type: 'call-end' });
    expect(done.state.phase).toBe('ready');
    expect(done.state.status).toBe('Call ended. Click the mic to talk again.');
  });

  it('a cancelled start that fails is not reported as a failure', () => {
    const { state, effects } = after([
      ...connecting,
      { type: 'stop-pressed' },
      { type: 'call-start-failed', error: 'Join aborted' },
      { type: 'start-settled', outcome: 'null' },
    ]);
    expect(state.phase).toBe('ending');
    expect(state.errorText).toBeNull();
    expect(effects).toEqual([]);
  });

  it('a start that settles with a call after the fallback ended the stop is stopped', () => {
    const { state, effects } = after([
      ...connecting,
      { type: 'stop-pressed' },
      { type: 'end-timeout' },
      { type: 'start-settled', outcome: 'call' },
    ]);
    expect(state.phase).toBe('ready');
    expect(state.startPending).toBe(false);
    expect(effects).toEqual([{ type: 'stop' }]);
    // Its call-end is not a second "Call Ended".
    expect(reduce(state, { type: 'call-end' }).effects).toEqual([]);
  });

  it('when call-end never comes, the fallback ends the call', () => {
    const { state, effects } = after([...ending, { type: 'stop-settled' }, { type: 'end-timeout' }]);
    expect(state.phase).toBe('ready');
    expect(state.status).toBe('Call ended. Click the mic to talk again.');
    expect(toasts(effects).map((t) => t.title)).toEqual(['Call Ended']);
    // The real call-end arriving later is ignored.
    expect(reduce(state, { type: 'call-end' }).effects).toEqual([]);
  });

  it('an error while connecting also stops again once start() settles with a call', () => {
    const { state, effects } = after([
      ...connecting,
      { type: 'sdk-error', error: 'boom' },
      { type: 'start-settled', outcome: 'call' },
    ]);
    expect(state.phase).toBe('error');
    expect(effects).toEqual([{ type: 'stop' }]);
  });
});

describe('errorMessage', () => {
  it('reads a string', () => {
    expect(errorMessage('Meeting has ended')).toBe('Meeting has ended');
  });

  it('reads an object with a message, an Error, and the nested shapes of the SDK and Daily', () => {
    expect(errorMessage({ message: 'Invalid Key', error: 'Unauthorized', statusCode: 401 })).toBe(
      'Invalid Key',
    );
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage({ type: 'daily-error', error: { message: { errorMsg: 'Meeting not found' } } })).toBe(
      'Meeting not found',
    );
    expect(errorMessage({ message: ['assistantId must be a UUID', 'assistant should not exist'] })).toBe(
      'assistantId must be a UUID, assistant should not exist',
    );
    expect(errorMessage({ error: 'Unauthorized' })).toBe('Unauthorized');
    // serializeError stringifies an object without a message.
    expect(errorMessage({ message: '{"errorMsg":"Meeting has ended"}' })).toBe('Meeting has ended');
    expect(errorMessage('{not json')).toBe('{not json');
  });

  it('falls back to An unknown Vapi error occurred. for nothing readable', () => {
    for (const nothing of [undefined, null, '', '   ', {}, { message: '' }, 42, [], '{}']) {
      expect(errorMessage(nothing)).toBe('An unknown Vapi error occurred.');
    }
  });

  it('keeps a long message readable', () => {
    const text = errorMessage('x'.repeat(1000));
    expect(text.length).toBe(300);
    expect(text.endsWith('…')).toBe(true);
  });
});
