/**
 * The signed-in console: its bar (who is signed in, sign out), its navigation, the live regions
 * that report actions, and the page the address names.
 */
import { useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { CONSOLE_PATH } from '~/content/routes';
import { consoleCopy, consoleNav } from '~/content/console';
import type { SessionInfo } from '~/contract/console';
import { AuditPage } from './audit';
import { BookingsPage } from './bookings';
import { DeliveriesPage } from './deliveries';
import { EditEventPage, NewEventPage } from './event-form';
import { EventPage, EventsPage } from './events';
import { post } from './http';
import { InboxPage } from './inbox';
import { OverviewPage } from './overview';
import { PeoplePage } from './people';
import { RetentionPage } from './retention';
import { page, useSubPath } from './paths';
import { SecurityPage } from './security';
import { SpamPage } from './spam';
import { SubmissionPage } from './submission';
import { SubscribersPage, SuppressionsPage } from './subscribers';
import { NoticeProvider, noticeOf } from './ui/notices';
import { PageHeading } from './ui/page';

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
              {session.email}
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
        <nav aria-label={consoleCopy.navLabel} className="mx-auto max-w-6xl px-2">
          <ul className="flex flex-wrap gap-x-1 pb-2">
            {consoleNav.map((item) => (
              <li key={item.path}>
                <NavLink
                  to={page(item.path)}
                  end={item.path === ''}
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
      </div>
      <div className="mx-auto max-w-6xl px-4 py-8">
        <NoticeProvider resetKey={location.key} initial={noticeOf(location.state)}>
          <CurrentPage subPath={subPath} session={session} refresh={refresh} onSignedOut={onSignedOut} />
        </NoticeProvider>
      </div>
    </>
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
    case 'deliveries':
      return <DeliveriesPage />;
    case 'subscribers':
      return <SubscribersPage />;
    case 'suppressions':
      return <SuppressionsPage />;
    case 'people':
      return <PeoplePage />;
    case 'retention':
      return <RetentionPage />;
    case 'audit':
      return <AuditPage />;
    case 'security':
      return <SecurityPage session={session} refresh={refresh} onSignedOut={onSignedOut} />;
    default:
      return <NotFound />;
  }
}

function NotFound() {
  const copy = consoleCopy.notFound;
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
