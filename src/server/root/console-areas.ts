/**
 * The console's areas: each registers its routes inside the session scope of /api/owner
 * (src/server/console/plugin.ts). An area that shows or changes one feature's data lives in that
 * feature's folder; the areas that span features live in src/server/console. A new console area is
 * its module and one line here, as a form is one line of the dispatch table.
 */
import type { ConsoleArea } from '../kit/http/owner-routes';
import type { PersonalDataRegistry } from '../kit/personal-data';
import { peopleArea } from '../console/people';
import { retentionArea, type RetentionRunner } from '../console/retention';
import { bookingsArea } from '~/features/booking/booking-console.server';
import { eventsArea } from '~/features/events/events-console.server';

export function consoleAreas(deps: {
  personalData: PersonalDataRegistry;
  retentionRuns: RetentionRunner;
}): ConsoleArea[] {
  return [
    peopleArea(deps.personalData),
    retentionArea(deps.retentionRuns, deps.personalData),
    bookingsArea,
    eventsArea,
  ];
}
