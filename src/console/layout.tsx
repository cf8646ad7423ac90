/**
 * The signed-in console: its bar (who is signed in, sign out), its navigation, the live regions
 * that report actions, and the page the address names.
 */
import { ChevronDown } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { CONSOLE_PATH } from '~/content/routes';
import { consoleCopy, consoleNav } from '~/content/console';
import { ownersOnlyCopy } from '~/content/console-roles';
import { deliveryRoutes, overviewRoutes, suppressionRoutes, type SessionInfo } from '~/contract/console';
import { auditRoutes } from '~/contract/audit';
import { inboxRoutes } from '~/contract/inbox';
import { peopleRoutes, retentionRoutes } from '~/contract/people';
import { useAlertClicks } from './alerts';
import { mayUse, roleLabels, type ConsoleRole } from '~/contract/roles';
import type { RouteSpec } from '~/contract/route';
import { securityRoutes } from '~/contract/security';
import { systemRoutes } from '~/contract/system';
import { diaryRoutes } from '~/contract/diary';
import { bookingRoutes } from '~/features/booking/booking-console-contract';
import { eventsRoutes } from '~/features/events/events-console-contract';
import { subscriberRoutes } from '~/features/newsletter/newsletter-console-contract';
import { issueRoutes } from '~/features/newsletter/issues-console-contract';
import { articleRoutes } from '~/features/publishing/articles-console-contract';
import { businessRoutes } from '~/features/business/business-console-contract';
import { RoleProvider } from '~/components/console/role';
import { AuditPage } from './audit';
import { BookingsPage } from '~/features/booking/console/bookings-board';
import { DeliveriesPage } from './deliveries';
import { EditEventPage, NewEventPage } from '~/features/events/console/event-form';
import { EventPage, EventsPage } from '~/features/events/console/events-admin';
import { post } from '~/components/console/http';
import { InboxPage } from './inbox';
import { OverviewPage } from './overview';
import { PeoplePage } from './people';
import { RetentionPage } from './retention';
import { page, useSubPath } from '~/components/console/paths';
import { SecurityPage } from './security';
import { SpamPage } from './spam';
import { SystemPage } from './system';
import { SubmissionPage } from './submission';
import { SubscribersPage } from '~/features/newsletter/console/subscribers';
import { NewsletterPage } from '~/features/newsletter/console/newsletter-page';
import { NewIssuePage } from '~/features/newsletter/console/issue-form';
import { IssuePage } from '~/features/newsletter/console/issue-page';
import { ArticlesPage } from '~/features/publishing/console/articles-page';
import { BusinessPage } from '~/features/business/console/business-page';
import { NewArticlePage } from '~/features/publishing/console/article-form';
import { ArticlePage } from '~/features/publishing/console/article-page';
import { SuppressionsPage } from './suppressions';
import { DiaryPage } from './diary';
import { AvailabilityPage } from '~/features/booking/console/availability-page';
import { availabilityRoutes } from '~/features/booking/availability-console-contract';
import { VisitsPage } from '~/features/analytics/console/visits-page';
import { analyticsRoutes } from '~/features/analytics/analytics-console-contract';
import { NoticeProvider, noticeOf } from '~/components/console/notices';
import { PageHeading } from '~/components/console/page';

export function ConsoleLayout({
  session,
  refresh,
  onSignedOut,
}: {
  session: SessionInfo;
  refresh: () => Promise<boolean>;
  onSignedOut: () => void;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const subPath = useSubPath();
  useAlertClicks(useCallback((path: string) => void navigate(path), [navigate]));
  const [signingOut, setSigningOut] = useState(false);

  async function signOut() {
    setSigningOut(true);
    await post('/sign-out');
    setSigningOut(false);
    onSignedOut();
    void navigate(CONSOLE_PATH, { replace: true });
  }

  return (
    <>
      <div className="border-b border-ink-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
          <p className="font-bold text-ink-900">
            <Link to={CONSOLE_PATH} className="rounded">
              {consoleCopy.brand}
            </Link>
          </p>
          <div className="flex min-w-0 flex-wrap items-center gap-x-4 gap-y-2 text-sm">
            <p className="min-w-0 break-all text-ink-700">
              <span className="sr-only">{consoleCopy.signedInAs} </span>
              <span className="font-medium text-ink-900">{session.name}</span>{' '}
              <span>({roleLabels[session.role]})</span> <span className="text-ink-600">{session.email}</span>
            </p>
            <a href="/" className="text-link">
              {consoleCopy.viewSite}
            </a>
            <button
              type="button"
              className="btn btn-secondary min-h-10 px-3 py-1.5"
              disabled={signingOut}
              onClick={() => void signOut()}
            >
              {signingOut ? consoleCopy.signingOut : consoleCopy.signOut}
            </button>
          </div>
        </div>
        <ConsoleNav subPath={subPath} role={session.role} />
      </div>
      <div className="mx-auto max-w-6xl px-4 py-8">
        <RoleProvider role={session.role}>
          <NoticeProvider resetKey={location.key} initial={noticeOf(location.state)}>
            {mayUse(session.role, routeOfPage(subPath)) ? (
              <CurrentPage subPath={subPath} session={session} refresh={refresh} onSignedOut={onSignedOut} />
            ) : (
              <Unavailable copy={ownersOnlyCopy} />
            )}
          </NoticeProvider>
        </RoleProvider>
      </div>
    </>
  );
}

/** The navigation's entry for the page at `subPath` (its list's, for one thing's page), if any. */
function currentNavItem(subPath: string) {
  return consoleNav.find((item) =>
    item.path === '' ? subPath === '' : subPath === item.path || subPath.startsWith(`${item.path}/`),
  );
}

/**
 * The console's pages. On a wide screen, a row of links; on a narrow one, a "Menu" button that
 * names the current page and opens the list (a disclosure: Escape or a link closes it).
 */
function ConsoleNav({ subPath, role }: { subPath: string; role: ConsoleRole }) {
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(subPath);
  const listId = useId();
  const button = useRef<HTMLButtonElement>(null);
  // Another page (a link followed, the browser's back) closes the menu.
  if (openedAt !== subPath) {
    setOpenedAt(subPath);
    setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      // Focus would otherwise be lost inside the list that just closed.
      button.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  const current = currentNavItem(subPath);
  return (
    <nav aria-label={consoleCopy.navLabel} className="mx-auto max-w-6xl px-4 pb-2 md:px-2">
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
        className="flex min-h-11 w-full items-center justify-between gap-3 rounded-md border border-ink-300 bg-white px-3 py-2 text-sm font-medium text-ink-900 md:hidden"
      >
        <span>{consoleCopy.menu}</span>
        <span className="flex min-w-0 items-center gap-2">
          {current ? (
            // Read as "Menu, current page: Inbox".
            <span className="truncate">
              <span className="sr-only">, {consoleCopy.currentPage}: </span>
              {current.label}
            </span>
          ) : null}
          <ChevronDown aria-hidden="true" className={`size-4 shrink-0 ${open ? 'rotate-180' : ''}`} />
        </span>
      </button>
      <ul
        id={listId}
        className={`${open ? 'mt-1 flex' : 'hidden'} flex-col gap-y-0.5 md:mt-0 md:flex md:flex-row md:flex-wrap md:gap-x-1 md:gap-y-0`}
      >
        {consoleNav
          .filter((item) => mayUse(role, routeOfPage(item.path)))
          .map((item) => (
            <li key={item.path}>
              <NavLink
                to={page(item.path)}
                end={item.path === ''}
                onClick={() => setOpen(false)}
                className={({ isActive }) =>
                  'block rounded-md px-3 py-2 text-sm font-medium ' +
                  (isActive ? 'bg-ink-900 text-white' : 'text-ink-700 hover:bg-ink-100 hover:text-ink-900')
                }
              >
                {item.label}
              </NavLink>
            </li>
          ))}
      </ul>
    </nav>
  );
}

/** The page the path under /owner names. */
function CurrentPage({
  subPath,
  session,
  refresh,
  onSignedOut,
}: {
  subPath: string;
  session: SessionInfo;
  refresh: () => Promise<boolean>;
  onSignedOut: () => void;
}) {
  const submission = /^inbox\/([^/]+)$/.exec(subPath);
  if (submission) return <SubmissionPage key={submission[1]} id={decodeURIComponent(submission[1] ?? '')} />;
  if (subPath === 'events/new') return <NewEventPage />;
  const event = /^events\/([^/]+)(\/edit)?$/.exec(subPath);
  if (event) {
    const id = decodeURIComponent(event[1] ?? '');
    return event[2] ? <EditEventPage key={`${id}-edit`} id={id} /> : <EventPage key={id} id={id} />;
  }
  if (subPath === 'newsletter/new') return <NewIssuePage />;
  const issue = /^newsletter\/([^/]+)$/.exec(subPath);
  if (issue) {
    const id = decodeURIComponent(issue[1] ?? '');
    return <IssuePage key={id} id={id} />;
  }
  if (subPath === 'articles/new') return <NewArticlePage />;
  const article = /^articles\/([^/]+)$/.exec(subPath);
  if (article) {
    const id = decodeURIComponent(article[1] ?? '');
    return <ArticlePage key={id} id={id} />;
  }
  switch (subPath) {
    case '':
      return <OverviewPage />;
    case 'inbox':
      return <InboxPage />;
    case 'spam':
      return <SpamPage />;
    case 'bookings':
      return <BookingsPage />;
    case 'events':
      return <EventsPage />;
    case 'calendar':
      return <DiaryPage />;
    case 'availability':
      return <AvailabilityPage />;
    case 'deliveries':
      return <DeliveriesPage />;
    case 'newsletter':
      return <NewsletterPage />;
    case 'subscribers':
      return <SubscribersPage />;
    case 'articles':
      return <ArticlesPage />;
    case 'business':
      return <BusinessPage />;
    case 'visits':
      return <VisitsPage />;
    case 'suppressions':
      return <SuppressionsPage />;
    case 'people':
      return <PeoplePage />;
    case 'retention':
      return <RetentionPage />;
    case 'system':
      return <SystemPage />;
    case 'audit':
      return <AuditPage />;
    case 'security':
      return <SecurityPage session={session} refresh={refresh} onSignedOut={onSignedOut} />;
    default:
      return <Unavailable copy={consoleCopy.notFound} />;
  }
}

/**
 * The route whose data a page shows (for a page that changes something, the change's): a page the
 * signed-in person's role may not use is neither in the navigation nor shown (decision 032).
 */
function routeOfPage(subPath: string): RouteSpec {
  if (/^inbox\/[^/]+$/.test(subPath)) return inboxRoutes.detail;
  if (subPath === 'events/new') return eventsRoutes.create;
  if (/^events\/[^/]+\/edit$/.test(subPath)) return eventsRoutes.update;
  if (/^events\/[^/]+$/.test(subPath)) return eventsRoutes.detail;
  if (subPath === 'newsletter/new') return issueRoutes.create;
  if (/^newsletter\/[^/]+$/.test(subPath)) return issueRoutes.detail;
  if (subPath === 'articles/new') return articleRoutes.create;
  if (/^articles\/[^/]+$/.test(subPath)) return articleRoutes.detail;
  const pages: Record<string, RouteSpec> = {
    '': overviewRoutes.view,
    inbox: inboxRoutes.list,
    spam: inboxRoutes.list,
    bookings: bookingRoutes.list,
    events: eventsRoutes.list,
    calendar: diaryRoutes.view,
    availability: availabilityRoutes.view,
    deliveries: deliveryRoutes.list,
    newsletter: issueRoutes.list,
    subscribers: subscriberRoutes.list,
    articles: articleRoutes.list,
    business: businessRoutes.view,
    visits: analyticsRoutes.summary,
    suppressions: suppressionRoutes.page,
    people: peopleRoutes.find,
    retention: retentionRoutes.view,
    system: systemRoutes.view,
    audit: auditRoutes.page,
    security: securityRoutes.session,
  };
  // A page the console does not have: its "not found", for anyone.
  return pages[subPath] ?? securityRoutes.session;
}

/**
 * A page in place of one the signed-in person cannot open: a helper at the address of an owner's
 * page, or anyone at an address the console does not have.
 */
function Unavailable({ copy }: { copy: { title: string; text: string; back: string } }) {
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.text}</p>
      <p className="mt-4">
        <Link to={CONSOLE_PATH} className="text-link">
          {copy.back}
        </Link>
      </p>
    </>
  );
}
