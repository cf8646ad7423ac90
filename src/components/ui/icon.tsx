import type { LucideIcon } from 'lucide-react';
import type { IconName } from '~/content/types';

/**
 * The drawings for the icon names a page's content uses. Each page imports only its own
 * icons; the mapped type makes TypeScript require a drawing for every name in use.
 */
export type IconSet<N extends IconName> = { readonly [K in N]: LucideIcon };

/** A decorative icon; the text beside it carries the meaning. */
export function Icon({ icon: Drawing, className = 'size-6' }: { icon: LucideIcon; className?: string }) {
  return <Drawing aria-hidden="true" focusable="false" className={className} />;
}

/** An icon in a tinted rounded square, used at the top of cards. */
export function IconBadge({ icon, tone = 'brand' }: { icon: LucideIcon; tone?: 'brand' | 'ink' }) {
  return (
    <span
      className={
        'inline-flex size-12 shrink-0 items-center justify-center rounded-xl ' +
        (tone === 'brand' ? 'bg-brand-100 text-brand-800' : 'bg-ink-100 text-ink-800')
      }
    >
      <Icon icon={icon} />
    </span>
  );
}
