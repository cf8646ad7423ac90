import type { Feature, IconName } from '~/content/types';
import { IconBadge, type IconSet } from '~/components/ui/icon';

/** Cards of icon, h3 and text: pillars, values, credentials, how-it-works steps. */
export function FeatureGrid<N extends IconName>({
  items,
  icons,
  columns = 3,
  numbered = false,
}: {
  items: readonly Feature<N>[];
  icons: IconSet<N>;
  columns?: 2 | 3 | 4;
  numbered?: boolean;
}) {
  const cols = { 2: 'md:grid-cols-2', 3: 'md:grid-cols-3', 4: 'sm:grid-cols-2 lg:grid-cols-4' }[columns];
  return (
    <ul className={`mt-12 grid gap-6 ${cols}`}>
      {items.map((item, index) => (
        <li key={item.title} className="card flex flex-col gap-4">
          <div className="flex items-center justify-between">
            <IconBadge icon={icons[item.icon]} />
            {numbered ? (
              <span className="text-sm font-semibold tracking-wide text-brand-700 uppercase">
                Step {index + 1}
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
