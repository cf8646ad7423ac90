/**
 * The registration section of the Resources page (`#register`, where 'Reserve Your Spot' leads):
 * the form while the next masterclass's registration is open, a sentence while it is not yet
 * open or has closed, and nothing for no masterclass, a past or a cancelled one (the card says
 * so). The section itself is always in the page, so the anchor always works.
 *
 * It is filled after hydration, below the first screen. Like every later section it is laid out
 * on approach (`content-visibility: auto`, decision 011), but while it is empty its estimated
 * height is 0 rather than the 640 px the other sections reserve.
 */
import { useEffect } from 'react';
import { SectionHeader } from '~/components/sections/section-header';
import { registrationForm as copy } from '~/content/events';
import { ukInstantLabel } from './event-labels';
import { useNextEvent } from './next-event';
import { RegistrationForm } from './registration-form';

export const REGISTER_ID = 'register';
const TITLE_ID = 'register-title';

export function RegistrationSection() {
  const state = useNextEvent();
  const live = state.kind === 'event' && !state.past && !state.event.cancelled ? state : null;
  const phase = live?.registration;

  // A visitor who arrived at /resources#register was scrolled to the empty section: show them the form.
  useEffect(() => {
    if (phase === 'open' && window.location.hash === `#${REGISTER_ID}`)
      document.getElementById(REGISTER_ID)?.scrollIntoView();
  }, [phase]);

  if (!live)
    return <section id={REGISTER_ID} className="[contain-intrinsic-size:auto_0px]" data-state="none" />;

  const { event } = live;
  if (phase !== 'open') {
    const notice = phase === 'not-yet-open' ? copy.notYetOpen : copy.closed;
    return (
      <section id={REGISTER_ID} aria-labelledby={TITLE_ID} data-state={phase}>
        <div className="section">
          <SectionHeader
            id={TITLE_ID}
            align="left"
            eyebrow={copy.eyebrow}
            title={notice.title}
            intro={
              phase === 'not-yet-open'
                ? copy.notYetOpen.text(ukInstantLabel(event.registration.opensAt))
                : copy.closed.text
            }
          />
        </div>
      </section>
    );
  }

  const waitlist = event.registration.placesLeft === 0;
  return (
    <section id={REGISTER_ID} aria-labelledby={TITLE_ID} data-state="open">
      <div className="section grid gap-10 lg:grid-cols-2 lg:gap-16">
        <div>
          <SectionHeader
            id={TITLE_ID}
            align="left"
            eyebrow={copy.eyebrow}
            title={copy.title}
            intro={copy.intro(event.title, ukInstantLabel(event.startsAt))}
          />
          {waitlist ? <p className="mt-4 leading-relaxed text-ink-700">{copy.waitlistIntro}</p> : null}
        </div>
        <div className="card sm:p-8">
          <RegistrationForm eventId={event.id} waitlist={waitlist} />
        </div>
      </div>
    </section>
  );
}
