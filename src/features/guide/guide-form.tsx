/** Slot for the guide download form, built by its own feature; the page around it is complete. */
export function GuideForm() {
  return (
    <div data-slot="guide" className="rounded-lg border border-dashed border-ink-300 p-6 text-ink-700">
      The guide download form is being prepared.
    </div>
  );
}
