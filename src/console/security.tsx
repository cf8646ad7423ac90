/**
 * Security: the owner's passkeys (add one with this device or a phone, remove one) and "Sign out
 * everywhere", which ends every session, this one included.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { CONSOLE_PATH } from '~/content/routes';
import { securityCopy as copy } from '~/content/console';
import type { PasskeyInfo, SessionInfo } from './api';
import { post } from './http';
import {
  ConfirmButton,
  Field,
  DateTime,
  Loaded,
  PageHeading,
  TableBox,
  td,
  th,
  useAction,
  useNotify,
  useResource,
} from './ui';

function isCancelled(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}

function AddPasskey({ onAdded }: { onAdded: () => void }) {
  const notify = useNotify();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    notify(null);
    try {
      if (!browserSupportsWebAuthn()) {
        notify({ tone: 'error', text: copy.unsupported });
        return;
      }
      const options = await post<{
        challengeId: string;
        options: Parameters<typeof startRegistration>[0]['optionsJSON'];
      }>('/passkeys/register/options');
      if (!options.ok) {
        if (options.status !== 401) notify({ tone: 'error', text: options.error });
        return;
      }
      let response;
      try {
        response = await startRegistration({ optionsJSON: options.data.options });
      } catch (error) {
        notify({ tone: 'error', text: isCancelled(error) ? copy.addCancelled : (error as Error).message });
        return;
      }
      const saved = await post<PasskeyInfo>('/passkeys/register', {
        challengeId: options.data.challengeId,
        response,
        name: name.trim(),
      });
      if (!saved.ok) {
        if (saved.status !== 401) notify({ tone: 'error', text: saved.error });
        return;
      }
      setName('');
      notify({ tone: 'success', text: copy.added(saved.data.name) });
      onAdded();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={add} aria-labelledby="security-add" className="card mt-6">
      <h3 id="security-add" className="text-lg font-semibold">
        {copy.addHeading}
      </h3>
      <Field label={copy.addName} hint={copy.addNameHint} className="mt-3 max-w-md">
        {(control) => (
          <input
            {...control}
            type="text"
            name="name"
            maxLength={60}
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
            className="field-input"
          />
        )}
      </Field>
      <button type="submit" className="btn btn-primary" disabled={busy}>
        {busy ? copy.adding : copy.addButton}
      </button>
    </form>
  );
}

export function SecurityPage({
  refresh,
  onSignedOut,
}: {
  session: SessionInfo;
  refresh: () => Promise<boolean>;
  onSignedOut: () => void;
}) {
  const navigate = useNavigate();
  const [passkeys, reload] = useResource<{ passkeys: PasskeyInfo[] }>('/passkeys');
  const { busy, run } = useAction();

  const changed = () => {
    reload();
    void refresh();
  };

  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>

      <section aria-labelledby="security-passkeys" className="mt-6">
        <h2 id="security-passkeys" className="text-xl font-semibold">
          {copy.passkeysHeading}
        </h2>
        <p className="mt-2 text-ink-700">{copy.passkeysIntro}</p>
        <Loaded resource={passkeys} reload={reload}>
          {(data) =>
            data.passkeys.length === 0 ? (
              <p className="mt-4 text-ink-700">{copy.noPasskeys}</p>
            ) : (
              <TableBox label={copy.tableLabel}>
                <table className="w-full min-w-[32rem] border-collapse">
                  <caption className="sr-only">{copy.tableLabel}</caption>
                  <thead>
                    <tr>
                      <th scope="col" className={th}>
                        {copy.name}
                      </th>
                      <th scope="col" className={th}>
                        {copy.created}
                      </th>
                      <th scope="col" className={th}>
                        {copy.lastUsed}
                      </th>
                      <th scope="col" className={th}>
                        {copy.actions}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.passkeys.map((passkey, index) => (
                      <tr key={passkey.id}>
                        <th
                          scope="row"
                          id={`passkey-${index}`}
                          className={`${td} text-left font-medium break-words`}
                        >
                          {passkey.name}
                        </th>
                        <td className={`${td} whitespace-nowrap`}>
                          <DateTime iso={passkey.createdAt} />
                        </td>
                        <td className={`${td} whitespace-nowrap`}>
                          <DateTime iso={passkey.lastUsedAt} />
                        </td>
                        <td className={td}>
                          <ConfirmButton
                            label={copy.remove}
                            title={copy.removeTitle}
                            text={copy.removeText}
                            describedBy={`passkey-${index}`}
                            disabled={busy !== null}
                            className="btn btn-secondary min-h-10 px-3 py-1.5"
                            onConfirm={() =>
                              void run(
                                `remove-${passkey.id}`,
                                () => post(`/passkeys/${encodeURIComponent(passkey.id)}/delete`),
                                () => copy.removed,
                              ).then((done) => done && changed())
                            }
                          />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableBox>
            )
          }
        </Loaded>
        <AddPasskey onAdded={changed} />
      </section>

      <section aria-labelledby="security-sessions" className="card mt-8">
        <h2 id="security-sessions" className="text-xl font-semibold">
          {copy.sessionsHeading}
        </h2>
        <p className="mt-2 text-ink-700">{copy.sessionsText}</p>
        <div className="mt-4">
          <ConfirmButton
            label={copy.signOutEverywhere}
            title={copy.signOutEverywhereTitle}
            text={copy.signOutEverywhereText}
            disabled={busy !== null}
            onConfirm={() =>
              void run(
                'everywhere',
                () => post('/sign-out-everywhere'),
                () => null,
              ).then((done) => {
                if (!done) return;
                onSignedOut();
                void navigate(CONSOLE_PATH, { replace: true });
              })
            }
          />
        </div>
      </section>
    </>
  );
}
