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
import { securityArea } from '../console/security';
import { overviewArea } from '../console/overview';
import { systemArea } from '../console/system';
import type { BackupService } from '../kit/backup/service';
import type { SystemView } from '~/contract/system';
import { auditArea, leadNames, namesFrom } from '../console/audit';
import { articles } from '~/features/publishing/tables.server';
import { events } from '~/features/events/tables.server';
import { newsletterIssues } from '~/features/newsletter/tables.server';
import { deliveriesArea } from '../console/deliveries';
import { suppressionsArea } from '../console/suppressions';
import { subscribersArea } from '~/features/newsletter/newsletter-console.server';
import { issuesArea } from '~/features/newsletter/issues-console.server';
import { publishedArticleTexts } from '~/features/publishing/articles.server';
import { articlesArea } from '~/features/publishing/articles-console.server';
import { businessArea } from '~/features/business/business-console.server';
import { businessPostalAddress } from '~/features/business/business.server';
import { inboxArea } from '../console/inbox';
import { businessContactEmail } from '~/features/business/business.server';
import { leadsArea } from '../console/leads';
import { spamArea, type FormHandlers } from '../console/spam';
import { submissionsExportArea } from '../console/submissions-export';
import { bookingsArea } from '~/features/booking/booking-console.server';
import { eventsArea } from '~/features/events/events-console.server';
import { diaryArea } from '../console/diary';
import { availabilityArea } from '~/features/booking/availability-console.server';
import type { CalendarFeedJob } from '~/features/booking/calendar-feed.server';
import { pushArea, type PushSender } from '../console/push';
import { analyticsArea } from '~/features/analytics/analytics-console.server';
import { FUNNEL_ENDS } from './funnel-ends';
import type { ImageProcess } from './images';

export function consoleAreas(deps: {
  personalData: PersonalDataRegistry;
  retentionRuns: RetentionRunner;
  /** The dispatch table's form handlers ("Not spam" runs the submission's). */
  handlers: FormHandlers;
  /** The owner's own calendar, read when the Availability page asks. */
  calendarFeed: CalendarFeedJob;
  /** Sends the Security page's test alert (decision 041). */
  pushSender: PushSender;
  /**
   * Called after the commit of an article action that changed what the public site shows (the
   * publication counter raised): the site renders its pages again. None: nothing is told.
   */
  onPublished?: () => void;
  /** Makes the owner's uploaded images out of the server's process; none: in it (decision 050). */
  images?: Pick<ImageProcess, 'cover' | 'photo'>;
  /** The backups and what the System page shows (decision 057). */
  backups: BackupService;
  systemStatus(running: boolean, now: Date): Promise<SystemView>;
}): ConsoleArea[] {
  return [
    peopleArea(deps.personalData),
    retentionArea(deps.retentionRuns, deps.personalData),
    securityArea,
    pushArea(deps.pushSender),
    overviewArea(async (now) => (await deps.systemStatus(deps.backups.running(), now)).warnings),
    systemArea(deps.backups, deps.systemStatus),
    // The log names what it speaks of: leads, and the features' articles, masterclasses and issues.
    auditArea({
      lead: leadNames,
      article: namesFrom(articles, articles.id, articles.title),
      masterclass: namesFrom(events, events.id, events.title),
      issue: namesFrom(newsletterIssues, newsletterIssues.id, newsletterIssues.subject),
    }),
    deliveriesArea,
    suppressionsArea,
    subscribersArea,
    // An issue may start from a published article (the publishing feature's); its footer names the
    // business's address (the business feature's); a sent one may be put on the site.
    issuesArea(publishedArticleTexts, businessPostalAddress, deps.onPublished),
    articlesArea(deps.onPublished, deps.images?.cover),
    businessArea(deps.onPublished, deps.images?.photo),
    inboxArea(deps.handlers),
    // A reply to a lead comes back to the business's contact e-mail (the business feature's).
    leadsArea(businessContactEmail),
    spamArea(deps.handlers),
    submissionsExportArea,
    bookingsArea,
    eventsArea(deps.onPublished),
    diaryArea,
    availabilityArea(deps.calendarFeed),
    analyticsArea(FUNNEL_ENDS),
  ];
}
