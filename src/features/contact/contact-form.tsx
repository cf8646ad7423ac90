/** Slot for the contact form, built by its own feature; the page around it is complete. */
export function ContactForm() {
  return (
    <div data-slot="contact" className="rounded-lg border border-dashed border-ink-300 p-6 text-ink-700">
      The contact form is being prepared.
    </div>
  );
}
