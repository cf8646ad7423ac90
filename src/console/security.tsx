/**
 * Security: the owner's passkeys (add one with this device or a phone, remove one), alerts on
 * their devices (./alerts.tsx), and "Sign out everywhere", which ends every session, this one
 * included (and leaves the devices' alerts).
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { CONSOLE_PATH } from '~/content/routes';
import { securityCopy as copy } from '~/content/console';
import type { PasskeyInfo, SessionInfo } from '~/contract/console';
import { post } from '~/components/console/http';
import { Loaded, useResource } from '~/components/console/data';
import { ConfirmButton } from '~/components/console/dialog';
import { SubmitButton, TextField } from '~/components/console/fields';
import { passkeyCeremony } from '~/components/console/passkey';
import { useAction, useNotify } from '~/components/console/notices';
import { PageHeading, Section } from '~/components/console/page';
import { DataTable, DateCell, rowTh, td } from '~/components/console/table';
import { AlertsSection } from './alerts';

function AddPasskey({ onAdded }: { onAdded: () => void }) {
  const notify = useNotify();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  async function add(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    notify(null);
    try {
      const saved = await passkeyCeremony<PasskeyInfo>(
        'register',
        { unsupported: copy.unsupported, cancelled: copy.addCancelled },
        { name: name.trim() },
      );
      if (!saved.ok) {
        // A 401 ended the session: the console shows the sign-in page instead.
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
      <TextField
        label={copy.addName}
        hint={copy.addNameHint}
        className="mt-3 max-w-md"
        name="name"
        maxLength={60}
        value={name}
        onChange={setName}
      />
      <SubmitButton busy={busy} label={copy.addButton} busyLabel={copy.adding} />
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

      <Section id="security-passkeys" heading={copy.passkeysHeading} className="mt-6" look="large">
        <p className="mt-2 text-ink-700">{copy.passkeysIntro}</p>
        <Loaded resource={passkeys} reload={reload}>
          {(data) =>
            data.passkeys.length === 0 ? (
              <p className="mt-4 text-ink-700">{copy.noPasskeys}</p>
            ) : (
              <DataTable
                label={copy.tableLabel}
                minWidth="min-w-[32rem]"
                columns={[copy.name, copy.created, copy.lastUsed, copy.actions]}
              >
                {data.passkeys.map((passkey, index) => (
                  <tr key={passkey.id}>
                    <th scope="row" id={`passkey-${index}`} className={rowTh}>
                      {passkey.name}
                    </th>
                    <DateCell iso={passkey.createdAt} />
                    <DateCell iso={passkey.lastUsedAt} />
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
              </DataTable>
            )
          }
        </Loaded>
        <AddPasskey onAdded={changed} />
      </Section>

      <AlertsSection />

      <Section id="security-sessions" heading={copy.sessionsHeading} className="card mt-8" look="large">
        <p className="mt-2 text-ink-700">{copy.sessionsText}</p>
        <p className="mt-2 text-ink-700">{copy.sessionsKeepDevices}</p>
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
      </Section>
    </>
  );
}
