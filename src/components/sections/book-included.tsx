import { CircleCheck } from 'lucide-react';
import { included } from '~/content/book';

/** "What's Included" under the booking form; the booking feature hides it after success. */
export function BookIncluded() {
  return (
    <section data-testid="book-included" aria-labelledby="book-included-title" className="card sm:p-8">
      <h2 id="book-included-title" className="text-2xl font-bold text-ink-900">
        {included.title}
      </h2>
      <ul className="mt-6 grid gap-4">
        {included.items.map((item) => (
          <li key={item} className="flex gap-3 leading-relaxed text-ink-800">
            <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-success-700" />
            <span>{item}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
