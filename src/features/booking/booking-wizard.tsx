/** Slot for the booking form, built by its own feature; the page around it is complete. */
export function BookingWizard() {
  return (
    <div data-slot="booking" className="rounded-lg border border-dashed border-ink-300 p-6 text-ink-700">
      The booking form is being prepared.
    </div>
  );
}
