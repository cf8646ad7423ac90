/** Slot for the voice simulator, built by its own feature; the page around it is complete. */
export function VoiceSimulator() {
  return (
    <div
      data-slot="voice-simulator"
      className="rounded-lg border border-dashed border-ink-300 p-6 text-ink-700"
    >
      The voice simulator is being prepared.
    </div>
  );
}
