/**
 * The owner's console, rendered in the browser only (its prerendered shell says it is checking
 * the session and holds nothing personal). It asks the server who is signed in, then shows the
 * sign-in page or the console's pages; any request answered 401 brings the sign-in page back,
 * at the same address, so signing in again returns there. `/owner/sign-in?token=` finishes an
 * e-mail link's sign-in.
 */
import { useCallback, useEffect, useState } from 'react';
import { consoleCopy } from '~/content/console';
import type { SessionInfo } from '~/contract/console';
import { getJson, onSessionEnded } from '~/components/console/http';
import { useSubPath } from '~/components/console/paths';
import { ConsoleLayout } from './layout';
import { LinkSignIn, SignInPage } from './sign-in';
import { registerConsoleWorker } from './alerts';

export type SessionState =
  { kind: 'checking' } | { kind: 'signed-out'; ended: boolean } | { kind: 'signed-in'; info: SessionInfo };

export default function Console() {
  const [session, setSession] = useState<SessionState>({ kind: 'checking' });
  const subPath = useSubPath();

  /** Asks the server who is signed in; true when someone is. */
  const refresh = useCallback(async () => {
    const result = await getJson<SessionInfo>('/session');
    if (result.ok) {
      setSession({ kind: 'signed-in', info: result.data });
      return true;
    }
    setSession({ kind: 'signed-out', ended: false });
    return false;
  }, []);

  // The console's service worker: alerts and the offline page (decision 041).
  useEffect(() => registerConsoleWorker(), []);

  useEffect(() => {
    onSessionEnded(() => setSession({ kind: 'signed-out', ended: true }));
    void getJson<SessionInfo>('/session').then((result) =>
      setSession(result.ok ? { kind: 'signed-in', info: result.data } : { kind: 'signed-out', ended: false }),
    );
  }, []);

  const signedOut = useCallback(() => setSession({ kind: 'signed-out', ended: false }), []);

  return (
    <div data-owner-console="" className="min-h-screen bg-ink-50">
      {session.kind === 'checking' ? (
        <p className="px-4 py-16 text-center text-ink-600">{consoleCopy.checkingSession}</p>
      ) : subPath === 'sign-in' ? (
        <LinkSignIn refresh={refresh} />
      ) : session.kind === 'signed-in' ? (
        <ConsoleLayout session={session.info} refresh={refresh} onSignedOut={signedOut} />
      ) : (
        <SignInPage ended={session.ended} refresh={refresh} />
      )}
    </div>
  );
}
