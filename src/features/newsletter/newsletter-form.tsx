/** Slot for the newsletter sign-up form, built by its own feature; the page around it is complete. */
export function NewsletterForm() {
  return (
    <div data-slot="newsletter" className="rounded-lg border border-dashed border-ink-300 p-6 text-ink-700">
      The newsletter sign-up form is being prepared.
    </div>
  );
}
