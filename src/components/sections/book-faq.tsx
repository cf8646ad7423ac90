import { ChevronDown } from 'lucide-react';
import { faqSection, faqs } from '~/content/book';

/** The booking FAQ; native disclosure widgets work before hydration and without JavaScript. */
export function BookFaq() {
  return (
    <section data-testid="book-faq" aria-labelledby="book-faq-title" className="card sm:p-8">
      <h2 id="book-faq-title" className="text-2xl font-bold text-ink-900">
        {faqSection.title}
      </h2>
      <div className="mt-4 divide-y divide-ink-100">
        {faqs.map((faq) => (
          <details key={faq.question} className="group py-4">
            <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded font-semibold text-ink-900 [&::-webkit-details-marker]:hidden">
              <span>{faq.question}</span>
              <ChevronDown
                aria-hidden="true"
                className="size-5 shrink-0 text-ink-600 transition-transform group-open:rotate-180"
              />
            </summary>
            <p className="mt-3 leading-relaxed text-ink-700">{faq.answer}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
