/**
 * Signing in: by an e-mail link (the server sends one if the address is an owner's, and answers
 * every address alike) or by a passkey. The link's page, `/owner/sign-in?token=`, changes
 * nothing until the owner presses "Sign in": a mail scanner that follows the link uses nothing up.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { CONSOLE_PATH } from '~/content/routes';
import { consoleCopy, signInCopy as copy } from '~/content/console';
import type { SignInRequestAnswer, SignedIn } from '~/contract/console';
import { post } from '~/components/console/http';
import { useQuery } from '~/components/console/paths';
import { Field } from '~/components/console/fields';
import { passkeyCeremony } from '~/components/console/passkey';
import { type Notice } from '~/components/console/notices';
import { PageHeading } from '~/components/console/page';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function Card({ children, labelledBy }: { children: React.ReactNode; labelledBy?: string }) {
  return (
    <section aria-labelledby={labelledBy} className="card mt-6">
      {children}
    </section>
  );
}

/** One message line that is always in the page, so what appears in it is read out. */
function Message({ notice }: { notice: Notice | null }) {
  return (
    <>
      <div role="status">
        {notice?.tone === 'success' ? <p className="mt-4 text-success-800">{notice.text}</p> : null}
      </div>
      <div role="alert">
        {notice?.tone === 'error' ? <p className="mt-4 text-danger-700">{notice.text}</p> : null}
      </div>
    </>
  );
}

export function SignInPage({ ended, refresh }: { ended: boolean; refresh: () => Promise<boolean> }) {
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const [emailNotice, setEmailNotice] = useState<Notice | null>(null);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  const [passkeyNotice, setPasskeyNotice] = useState<Notice | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const emailHeading = useId();
  const passkeyHeading = useId();

  async function sendLink(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    const error = value === '' ? copy.emailRequired : EMAIL.test(value) ? undefined : copy.emailInvalid;
    setEmailError(error);
    if (error) {
      emailRef.current?.focus();
      return;
    }
    setSending(true);
    setEmailNotice(null);
    const result = await post<SignInRequestAnswer>('/sign-in', { email: value });
    setSending(false);
    setEmailNotice(
      result.ok ? { tone: 'success', text: result.data.message } : { tone: 'error', text: result.error },
    );
  }

  async function signInWithPasskey() {
    setPasskeyNotice(null);
    setPasskeyBusy(true);
    try {
      const answer = await passkeyCeremony<SignedIn>('authenticate', {
        unsupported: copy.passkeyUnsupported,
        cancelled: copy.passkeyCancelled,
      });
      if (!answer.ok) {
        setPasskeyNotice({ tone: 'error', text: answer.error });
        return;
      }
      await refresh();
    } catch {
      setPasskeyNotice({ tone: 'error', text: consoleCopy.networkError });
    } finally {
      setPasskeyBusy(false);
    }
  }

  return (
    <div className="mx-auto max-w-xl px-4 py-12 md:py-16">
      <p className="eyebrow">{consoleCopy.brand}</p>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      {ended ? (
        <p className="mt-4 rounded-lg border border-brand-700 bg-brand-50 px-4 py-3 text-ink-900">
          {consoleCopy.sessionEnded}
        </p>
      ) : null}

      <Card labelledBy={emailHeading}>
        <h2 id={emailHeading} className="text-lg font-semibold">
          {copy.emailHeading}
        </h2>
        <form noValidate onSubmit={sendLink} className="mt-4">
          <Field label={copy.emailLabel} error={emailError} validated required>
            {(control) => (
              <input
                {...control}
                ref={emailRef}
                type="email"
                name="email"
                autoComplete="email"
                inputMode="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                className="field-input"
              />
            )}
          </Field>
          <button type="submit" className="btn btn-primary mt-2 w-full sm:w-auto" disabled={sending}>
            {sending ? copy.emailSending : copy.emailButton}
          </button>
          <Message notice={emailNotice} />
        </form>
      </Card>

      <Card labelledBy={passkeyHeading}>
        <h2 id={passkeyHeading} className="text-lg font-semibold">
          {copy.passkeyHeading}
        </h2>
        <p className="mt-2 text-ink-700">{copy.passkeyText}</p>
        <button
          type="button"
          className="btn btn-dark mt-4 w-full sm:w-auto"
          disabled={passkeyBusy}
          onClick={() => void signInWithPasskey()}
        >
          {passkeyBusy ? copy.passkeyWorking : copy.passkeyButton}
        </button>
        <Message notice={passkeyNotice} />
      </Card>

      <p className="mt-6 text-sm text-ink-600">{copy.firstTime}</p>
    </div>
  );
}

/** `/owner/sign-in?token=...`: one button that uses the link, then the overview. */
export function LinkSignIn({ refresh }: { refresh: () => Promise<boolean> }) {
  const navigate = useNavigate();
  const [params] = useQuery();
  const token = params.get('token') ?? '';
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function signIn() {
    if (!token) return;
    setBusy(true);
    setError(null);
    const result = await post<SignedIn>('/sign-in/link', { token });
    if (!result.ok) {
      setBusy(false);
      setError(result.error);
      return;
    }
    await refresh();
    // The token leaves the address bar (and the history) with this page.
    void navigate(CONSOLE_PATH, { replace: true });
  }

  const missing = token === '';
  return (
    <div className="mx-auto max-w-xl px-4 py-12 md:py-16">
      <p className="eyebrow">{consoleCopy.brand}</p>
      <PageHeading title={copy.link.title}>{copy.link.title}</PageHeading>
      <div className="card mt-6">
        {missing ? (
          <p className="text-ink-700">{copy.link.missing}</p>
        ) : (
          <>
            <p className="text-ink-700">{copy.link.text}</p>
            <button
              type="button"
              className="btn btn-primary mt-4 w-full sm:w-auto"
              disabled={busy}
              onClick={() => void signIn()}
            >
              {busy ? copy.link.working : copy.link.button}
            </button>
          </>
        )}
        <div role="alert">{error ? <p className="mt-4 text-danger-700">{error}</p> : null}</div>
        {missing || error ? (
          <p className="mt-4">
            <Link to={CONSOLE_PATH} replace className="text-link">
              {copy.link.back}
            </Link>
          </p>
        ) : null}
      </div>
    </div>
  );
}
