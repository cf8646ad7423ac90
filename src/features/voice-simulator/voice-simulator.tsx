import { Loader2, Mic, MicOff } from 'lucide-react';
import { voiceUi } from '~/content/voice-simulator';
import { useVoiceSimulator } from './use-voice-simulator';
import { buttonDisabled, buttonLabel, type VoiceState } from './voice-machine';

/**
 * The voice simulator on the AI coaching page: one mic button, a level meter of Elliot's
 * voice and a status line read out to screen readers.
 */
export function VoiceSimulator() {
  const { state, press } = useVoiceSimulator();
  const disabled = buttonDisabled(state);
  const live = state.phase === 'connecting' || state.phase === 'in-call';
  const busy = state.phase === 'initializing' || state.phase === 'connecting' || state.phase === 'ending';
  const Icon = state.phase === 'initializing' || state.phase === 'ending' ? Loader2 : live ? MicOff : Mic;
  // The start failure's status already contains its error text; say it once.
  const extraError = state.errorText && !state.status.includes(state.errorText) ? state.errorText : null;

  return (
    <div
      role="group"
      aria-label={voiceUi.regionLabel}
      data-slot="voice-simulator"
      data-phase={state.phase}
      className="flex flex-col items-center gap-4 text-center"
    >
      {state.phase === 'unavailable' ? (
        <div className="rounded-lg border border-ink-200 bg-ink-50 p-4 text-left">
          <p className="font-semibold text-ink-900">{voiceUi.unavailableTitle}</p>
          <p className="mt-1 text-sm text-ink-700">{voiceUi.unavailableText}</p>
        </div>
      ) : null}

      {/* aria-disabled rather than disabled: the button keeps its focus while a call ends, and a
          press still explains itself with the spec's toast (warming up, already stopping, error). */}
      <button
        type="button"
        onClick={press}
        aria-disabled={disabled || undefined}
        aria-busy={busy || undefined}
        className={
          'inline-flex min-h-14 items-center justify-center gap-3 rounded-full px-6 py-3 text-base font-semibold text-white shadow-sm transition-colors ' +
          'focus-visible:outline-3 focus-visible:outline-offset-4 focus-visible:outline-brand-600 ' +
          (disabled
            ? 'cursor-not-allowed bg-ink-600'
            : live
              ? 'bg-danger-700 hover:bg-ink-900'
              : 'bg-brand-700 hover:bg-brand-800')
        }
      >
        <Icon
          aria-hidden="true"
          className={'size-6' + (Icon === Loader2 ? ' animate-spin motion-reduce:animate-none' : '')}
        />
        <span>{buttonLabel(state)}</span>
      </button>

      {state.phase !== 'unavailable' ? <LevelMeter state={state} /> : null}

      <div role="status" aria-live="polite" aria-atomic="true" className="min-h-12 text-sm text-ink-700">
        <p>{state.status}</p>
        {extraError ? <p className="mt-1 font-medium text-danger-700">{extraError}</p> : null}
      </div>

      {state.phase === 'ready' ? <p className="text-xs text-ink-600">{voiceUi.micHint}</p> : null}
    </div>
  );
}

function LevelMeter({ state }: { state: VoiceState }) {
  const percent = Math.round(state.volume * 100);
  return (
    <div
      role="meter"
      aria-label={voiceUi.meterLabel}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={state.speaking ? voiceUi.meterSpeaking : voiceUi.meterSilent}
      className="h-2 w-full max-w-xs overflow-hidden rounded-full bg-ink-100"
    >
      <div
        className="h-full rounded-full bg-brand-600 transition-[width] duration-100 motion-reduce:transition-none"
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
