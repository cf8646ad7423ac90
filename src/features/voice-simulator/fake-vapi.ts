/**
 * A test double of `@vapi-ai/web` 2.7.1 that behaves as the real SDK does where the
 * simulator depends on it (read from node_modules/@vapi-ai/web/vapi.ts). Imported by tests
 * only. What it reproduces:
 *  - the constructor makes no network call and accepts any key;
 *  - `start()` without a target emits `error` and throws 'Assistant or Squad or Workflow must
 *    be provided.'; a second `start()` while one is under way resolves null;
 *  - a failed web call or Daily join does not reject: it emits `call-start-failed` (whose
 *    `error` is the API's JSON body when the API answered) and `error`, then resolves null;
 *  - with no `error` listener the emitter throws inside `start()`, which then rejects and
 *    stays "started", refusing every later start;
 *  - `call-start` fires when the assistant says it is listening, not when `start()` resolves;
 *  - `stop()` while the web call is pending does not cancel it;
 *  - `stop()` destroys the Daily call, whose `left-meeting` becomes `call-end` (or never comes);
 *  - remote audio levels become `volume-level` (scaled by 0.15) and `speech-start`/`speech-end`
 *    (threshold 0.01, 1 s hold).
 */
import { EventEmitter } from 'node:events';
import type { StartOverrides, VoiceClient } from './vapi-client';

export type FakeWebCallRequest = { assistantId?: string; assistantOverrides?: StartOverrides };
export type FakeApiAnswer = { status: number; body: unknown };

export type FakeVapiOptions = {
  /** The API's answer to POST /call/web. Defaults to a web call without video recording. */
  respond?: (request: FakeWebCallRequest) => Promise<FakeApiAnswer>;
  /** Daily's join; reject to make the join fail. */
  join?: () => Promise<void>;
  /** Whether destroying the Daily call emits `left-meeting` (hence `call-end`). */
  leaveEmitsCallEnd?: boolean;
  /** Makes `stop()` reject with this error. */
  stopError?: unknown;
};

type SerializedError = { message: unknown; [key: string]: unknown };

/** The SDK's serializeError, which is why `call-start-failed.error` is sometimes an object. */
function serializeError(error: unknown): SerializedError {
  if (error === null || error === undefined) return { message: 'Unknown error (null or undefined)' };
  if (error instanceof Error) return { message: error.message, name: error.name, stack: error.stack };
  if (typeof error === 'string') return { message: error };
  if (typeof error === 'object') {
    const record = error as Record<string, unknown>;
    return { message: record.message || record.error || JSON.stringify(error), ...record };
  }
  return { message: String(error) };
}

export class FakeVapi extends EventEmitter implements VoiceClient {
  readonly publicKey: string;
  readonly startCalls: FakeWebCallRequest[] = [];
  stopCalls = 0;
  /** The video source Daily would have been given (the camera when true). */
  lastVideoSource: boolean | undefined;
  private started = false;
  private call: { destroyed: boolean } | null = null;
  private speakingTimeout: ReturnType<typeof setTimeout> | null = null;
  private readonly options: FakeVapiOptions;

  constructor(publicKey: string, options: FakeVapiOptions = {}) {
    super();
    this.publicKey = publicKey;
    this.options = options;
  }

  async start(assistantId?: string, assistantOverrides?: StartOverrides): Promise<unknown> {
    if (!assistantId) {
      const error = new Error('Assistant or Squad or Workflow must be provided.');
      this.emit('error', {
        type: 'validation-error',
        stage: 'input-validation',
        error: serializeError(error),
      });
      throw error;
    }
    if (this.started) return null;
    this.started = true;
    const request = { assistantId, assistantOverrides };
    this.startCalls.push(request);
    try {
      const answer = await (this.options.respond ?? defaultRespond)(request);
      // The generated API client throws the whole response, its parsed body on `.error`.
      if (answer.status < 200 || answer.status > 299) throw { data: null, error: answer.body };
      const webCall = answer.body as { artifactPlan?: { videoRecordingEnabled?: boolean } };
      if (this.call) await this.cleanup();
      this.lastVideoSource = webCall?.artifactPlan?.videoRecordingEnabled ?? false;
      this.call = { destroyed: false };
      try {
        await (this.options.join ?? (async () => {}))();
      } catch (error) {
        this.emit('error', {
          type: 'daily-call-join-error',
          stage: 'daily-call-join',
          error: serializeError(error),
        });
        throw error;
      }
      this.emit('call-start-success', { totalDuration: 0 });
      return webCall;
    } catch (e) {
      const serialized = serializeError(e);
      this.emit('call-start-failed', { stage: 'unknown', error: serialized.message });
      this.emit('error', { type: 'start-method-error', stage: 'unknown', error: serialized });
      await this.cleanup();
      return null;
    }
  }

  async stop(): Promise<void> {
    this.stopCalls += 1;
    this.started = false;
    if (this.options.stopError !== undefined) throw this.options.stopError;
    if (this.call) {
      await this.destroyCall();
      this.call = null;
    }
    this.speakingTimeout = null;
  }

  /** The assistant is listening: the SDK turns Daily's 'listening' app message into `call-start`. */
  assistantListening(): void {
    this.emit('call-start');
  }

  /** One tick of Daily's remote audio level observer (every 100 ms in the real SDK). */
  remoteAudioLevel(levels: number[]): void {
    const speechLevel = levels.reduce((a, b) => a + b, 0);
    this.emit('volume-level', Math.min(1, speechLevel / 0.15));
    if (!(speechLevel > 0.01)) return;
    if (this.speakingTimeout) clearTimeout(this.speakingTimeout);
    else this.emit('speech-start');
    this.speakingTimeout = setTimeout(() => {
      this.emit('speech-end');
      this.speakingTimeout = null;
    }, 1000);
  }

  /** A fatal Daily error: the SDK forwards it as `error`; `left-meeting` may or may not follow. */
  dailyFatalError(error: unknown, { leaves = false } = {}): void {
    this.emit('error', { type: 'daily-error', error: serializeError(error) });
    if (leaves) this.leaveMeeting();
  }

  get isStarted(): boolean {
    return this.started;
  }

  private async destroyCall(): Promise<void> {
    const call = this.call;
    if (!call || call.destroyed) return;
    call.destroyed = true;
    await Promise.resolve();
    if (this.options.leaveEmitsCallEnd !== false) this.leaveMeeting();
  }

  private leaveMeeting(): void {
    this.emit('call-end');
    this.started = false;
    this.call = null;
  }

  private async cleanup(): Promise<void> {
    this.started = false;
    if (this.call) {
      await this.destroyCall();
      this.call = null;
    }
    this.speakingTimeout = null;
  }
}

async function defaultRespond(request: FakeWebCallRequest): Promise<FakeApiAnswer> {
  return {
    status: 201,
    body: {
      id: 'call-1',
      webCallUrl: 'https://example.daily.co/room',
      artifactPlan: {
        videoRecordingEnabled: request.assistantOverrides?.artifactPlan?.videoRecordingEnabled ?? true,
      },
    },
  };
}
