import type { Testimonial } from '~/content/types';

export function TestimonialCard({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure className="card flex h-full flex-col">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="size-8 fill-brand-200">
        <path d="M9.3 24c-2.9 0-5.3-2.4-5.3-5.6 0-5.2 3.6-9.4 8.8-10.9l.9 1.8c-3 1.2-4.8 3.6-4.9 6 .3 0 .6-.1.9-.1 2.6 0 4.6 2 4.6 4.5S12.2 24 9.3 24zm14.7 0c-2.9 0-5.3-2.4-5.3-5.6 0-5.2 3.6-9.4 8.8-10.9l.9 1.8c-3 1.2-4.8 3.6-4.9 6 .3 0 .6-.1.9-.1 2.6 0 4.6 2 4.6 4.5S26.9 24 24 24z" />
      </svg>
      <blockquote className="mt-4 flex-1 leading-relaxed text-ink-800">
        <p>{testimonial.quote}</p>
      </blockquote>
      <figcaption className="mt-6 border-t border-ink-100 pt-4">
        <span className="block font-semibold text-ink-900">{testimonial.author}</span>
        <span className="block text-sm text-ink-600">{testimonial.title}</span>
      </figcaption>
    </figure>
  );
}
