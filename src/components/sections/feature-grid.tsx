import type { Feature } from '~/content/types';
import { IconBadge } from '~/components/ui/icon';

/** Cards of icon, h3 and text: pillars, values, credentials, how-it-works steps. */
export function FeatureGrid({
  items,
  columns = 3,
  numbered = false,
}: {
  items: readonly Feature[];
  columns?: 2 | 3 | 4;
  numbered?: boolean;
}) {
  const cols = { 2: 'md:grid-cols-2', 3: 'md:grid-cols-3', 4: 'sm:grid-cols-2 lg:grid-cols-4' }[columns];
  return (
    <ul className={`mt-12 grid gap-6 ${cols}`}>
      {items.map((item, index) => (
        <li key={item.title} className="card flex flex-col gap-4">
          <div className="flex items-center justify-between">
            <IconBadge name={item.icon} />
            {numbered ? (
              <span aria-hidden="true" className="text-3xl font-bold text-ink-200">
                {String(index + 1).padStart(2, '0')}
              </span>
            ) : null}
          </div>
          <h3 className="text-xl font-semibold text-ink-900">{item.title}</h3>
          <p className="leading-relaxed text-ink-700">{item.text}</p>
        </li>
      ))}
    </ul>
  );
}
