/**
 * The guide's section, on the home page and on /resources: what the guide covers beside the
 * download form. The two pages give it their own words and look (the section's class, and the
 * class of the two-column grid inside it).
 */
import { CircleCheck } from 'lucide-react';
import { SectionHeader } from '~/components/sections/section-header';
import { GuideForm } from './guide-form';

export type GuideSectionCopy = { eyebrow: string; title: string; intro: string; points: readonly string[] };

export function GuideSection({
  id,
  titleId,
  copy,
  className,
  gridClassName,
}: {
  id?: string;
  titleId: string;
  copy: GuideSectionCopy;
  className: string;
  gridClassName: string;
}) {
  return (
    <section id={id} aria-labelledby={titleId} className={className}>
      <div className={gridClassName}>
        <div>
          <SectionHeader
            id={titleId}
            align="left"
            eyebrow={copy.eyebrow}
            title={copy.title}
            intro={copy.intro}
          />
          <ul className="mt-6 grid gap-3">
            {copy.points.map((point) => (
              <li key={point} className="flex gap-3 text-ink-800">
                <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-success-700" />
                {point}
              </li>
            ))}
          </ul>
        </div>
        <div>
          <GuideForm />
        </div>
      </div>
    </section>
  );
}
