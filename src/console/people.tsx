/**
 * People: everything held about one person, found by the e-mail address they typed, in every
 * table and .eml file. "Download" gives it as one JSON file (a subject access request);
 * "Erase" deletes it all, after saying exactly what, and keeps the address only as a keyed hash
 * on the suppression list.
 */
import type { FormEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { consoleCopy, peopleCopy as copy } from '~/content/console';
import { formTypeLabels, OWNER_API, type ErasureAnswer, type FormType, type PersonView } from './api';
import { post, withQuery } from './http';
import { page, useQuery } from './paths';
import { Badge, ConfirmButton, DateTime, Field, Loaded, PageHeading, useAction, useResource } from './ui';

export function PeoplePage() {
  const [params, setParams] = useQuery();
  const email = params.get('email')?.trim() ?? '';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = String(new FormData(event.currentTarget).get('email') ?? '').trim();
    const next = new URLSearchParams();
    if (value) next.set('email', value);
    setParams(next);
  }

  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{copy.intro}</p>
      <form key={email} role="search" onSubmit={submit} className="mt-4 flex flex-wrap items-end gap-3">
        <Field label={copy.email} className="w-full max-w-md">
          {(control) => (
            <input
              {...control}
              name="email"
              type="email"
              autoComplete="off"
              defaultValue={email}
              required
              className="field-input"
            />
          )}
        </Field>
        <button type="submit" className="btn btn-primary mb-3">
          {copy.find}
        </button>
      </form>
      {email ? <Person key={email} email={email} /> : null}
    </>
  );
}

function Person({ email }: { email: string }) {
  const [person, reload] = useResource<PersonView>(withQuery('/people', { email }));
  const { busy, run } = useAction();
  return (
    <Loaded resource={person} reload={reload}>
      {(data) => {
        const total =
          data.submissions.length +
          data.consents.length +
          data.bookings.length +
          data.subscriptions.length +
          data.emails.length;
        return (
          <section
            aria-labelledby="person-heading"
            className="mt-6 rounded-xl border border-ink-200 bg-white p-5"
          >
            <h2 id="person-heading" className="text-lg font-bold break-all text-ink-900">
              {data.email}
            </h2>
            <p role="status" className="mt-1 text-ink-700">
              {total === 0 ? copy.nothing : copy.held(total)}
            </p>
            <p className="mt-1 text-ink-700">{data.suppressed ? copy.suppressed : copy.notSuppressed}</p>
            {total > 0 ? (
              <div className="mt-4 flex flex-wrap gap-3">
                <a
                  href={withQuery(`${OWNER_API}/people/export.json`, { email })}
                  download
                  className="btn btn-secondary"
                >
                  {copy.download}
                </a>
                <ConfirmButton
                  label={copy.erase}
                  title={copy.eraseTitle}
                  text={copy.eraseText(data.email, total)}
                  disabled={busy !== null}
                  className="btn bg-danger-700 text-white hover:bg-ink-900"
                  onConfirm={() =>
                    void run(
                      'erase',
                      () => post<ErasureAnswer>('/people/erase', { email }),
                      (answer) => copy.erased(answer.counts),
                    ).then((done) => done && reload())
                  }
                />
              </div>
            ) : null}
            <Section title={copy.submissions} items={data.submissions}>
              {(s) => (
                <>
                  <Link to={page(`inbox/${s.id}`)} className="text-link">
                    {formTypeLabels[s.formType as FormType] ?? s.formType}
                  </Link>{' '}
                  <DateTime iso={s.receivedAt} /> {s.spam ? <Badge tone="bad">Spam</Badge> : null}
                </>
              )}
            </Section>
            <Section title={copy.consents} items={data.consents}>
              {(c) => (
                <>
                  <DateTime iso={c.givenAt} />: {c.wording}
                </>
              )}
            </Section>
            <Section title={copy.bookings} items={data.bookings}>
              {(b) => `${b.reference} (${b.status})`}
            </Section>
            <Section title={copy.newsletter} items={data.subscriptions}>
              {(n) => (
                <>
                  {n.status}, <DateTime iso={n.createdAt} />
                </>
              )}
            </Section>
            <Section title={copy.emails} items={data.emails}>
              {(e) => (
                <>
                  <span className="font-mono text-xs">{e.kind}</span> {e.status},{' '}
                  <DateTime iso={e.createdAt} />
                  {e.bodyRemoved ? ` (${copy.textRemoved})` : ''}
                </>
              )}
            </Section>
            <Section title={copy.emlFiles} items={data.emlFiles}>
              {(name) => <span className="font-mono text-xs break-all">{name}</span>}
            </Section>
          </section>
        );
      }}
    </Loaded>
  );
}

function Section<T>({
  title,
  items,
  children,
}: {
  title: string;
  items: T[];
  children: (item: T) => ReactNode;
}) {
  return (
    <>
      <h3 className="mt-5 font-semibold text-ink-900">{`${title} (${items.length})`}</h3>
      {items.length === 0 ? (
        <p className="text-sm text-ink-600">{consoleCopy.none}</p>
      ) : (
        <ul className="mt-1 list-disc space-y-1 pl-6 text-sm text-ink-800">
          {items.map((item, i) => (
            <li key={i}>{children(item)}</li>
          ))}
        </ul>
      )}
    </>
  );
}
