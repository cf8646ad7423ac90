import { Check } from 'lucide-react';
import type { PlanCard as PlanCardData } from '~/content/types';
import { ActionLink } from '~/components/ui/action-link';
import { IconBadge } from '~/components/ui/icon';
import type { LucideIcon } from 'lucide-react';

/** A plan or offer card: the spec's title, price, description, features, cta, link and primary flag. */
export function PlanCard({ plan, icon, badge }: { plan: PlanCardData; icon: LucideIcon; badge?: string }) {
  return (
    <article
      className={
        'relative flex h-full flex-col rounded-[var(--radius-card)] border bg-white p-6 shadow-sm sm:p-8 ' +
        (plan.primary ? 'border-brand-600 ring-2 ring-brand-600' : 'border-ink-100')
      }
    >
      {plan.primary && badge ? (
        <p className="absolute -top-3.5 left-6 rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold text-white">
          {badge}
        </p>
      ) : null}
      <IconBadge icon={icon} tone={plan.primary ? 'brand' : 'ink'} />
      <h3 className="mt-5 text-xl font-semibold text-ink-900">{plan.title}</h3>
      <p className="mt-3">
        <span className="text-3xl font-bold tracking-tight text-ink-900">{plan.price}</span>
        {plan.priceNote ? <span className="ml-2 text-sm text-ink-600">{plan.priceNote}</span> : null}
      </p>
      <p className="mt-4 leading-relaxed text-ink-700">{plan.description}</p>
      <ul className="mt-6 grid gap-3 text-sm text-ink-800">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-3">
            <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success-700" />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      <div className="mt-auto pt-8">
        <ActionLink to={plan.link} variant={plan.primary ? 'primary' : 'secondary'} className="w-full">
          {plan.cta}
          {plan.ctaContext ? <span className="sr-only"> {plan.ctaContext}</span> : null}
        </ActionLink>
        {plan.note ? <p className="mt-3 text-center text-sm text-ink-600">{plan.note}</p> : null}
      </div>
    </article>
  );
}
