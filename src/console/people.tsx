/**
 * People: everything held about one person, found by the e-mail address they typed, in every
 * table and .eml file. "Download" gives it as one JSON file (a subject access request);
 * "Erase" deletes it all, after saying exactly what, and keeps the address only as a keyed hash
 * on the suppression list. An address of the console's own cannot be erased: the screen says why
 * in place of the button (and the server refuses it with the same sentence).
 */
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { consoleCopy, peopleCopy as copy } from '~/content/console';
import { OWNER_API } from '~/contract/console';
import type { ErasureAnswer, PersonSection, PersonView } from '~/contract/people';
import { post, withQuery } from '~/components/console/http';
import { page, useQuery } from '~/components/console/paths';
import { Loaded, useResource } from '~/components/console/data';
import { DateTime } from '~/components/console/dates';
import { ConfirmButton } from '~/components/console/dialog';
import { DownloadLink } from '~/components/console/download';
import { Field } from '~/components/console/fields';
import { useAction } from '~/components/console/notices';
import { Badge, PageHeading } from '~/components/console/page';

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
      {(data) => (
        <section
          aria-labelledby="person-heading"
          className="mt-6 rounded-xl border border-ink-200 bg-white p-5"
        >
          <h2 id="person-heading" className="text-lg font-bold break-all text-ink-900">
            {data.email}
          </h2>
          <p role="status" className="mt-1 text-ink-700">
            {data.total === 0 ? copy.nothing : copy.held(data.total)}
          </p>
          <p className="mt-1 text-ink-700">{data.suppressed ? copy.suppressed : copy.notSuppressed}</p>
          {data.cannotErase ? (
            <p className="mt-3 rounded-lg bg-brand-50 p-3 text-ink-900" data-testid="person-cannot-erase">
              {data.cannotErase}
            </p>
          ) : null}
          {data.total > 0 ? (
            <div className="mt-4 flex flex-wrap gap-3">
              <DownloadLink
                href={withQuery(`${OWNER_API}/people/export.json`, { email })}
                className="btn btn-secondary"
              >
                {copy.download}
              </DownloadLink>
              {data.cannotErase ? null : (
                <ConfirmButton
                  label={copy.erase}
                  title={copy.eraseTitle}
                  text={copy.eraseText(data.email, data.total)}
                  disabled={busy !== null}
                  className="btn bg-danger-700 text-white hover:bg-ink-900"
                  onConfirm={() =>
                    void run(
                      'erase',
                      () => post<ErasureAnswer>('/people/erase', { email }),
                      (answer) => copy.erased(answer.erased),
                    ).then((done) => done && reload())
                  }
                />
              )}
            </div>
          ) : null}
          {data.sections.map((section) => (
            <Section key={section.key} section={section} />
          ))}
        </section>
      )}
    </Loaded>
  );
}

/** One kind of row held about the person, as its feature shows it. */
function Section({ section }: { section: PersonSection }) {
  const { title, items } = section;
  return (
    <>
      <h3 className="mt-5 font-semibold text-ink-900">{`${title} (${items.length})`}</h3>
      {items.length === 0 ? (
        <p className="text-sm text-ink-600">{consoleCopy.none}</p>
      ) : (
        <ul className="mt-1 list-disc space-y-1 pl-6 text-sm wrap-anywhere text-ink-800">
          {items.map((item, i) => (
            <li key={i}>
              {item.submissionId ? (
                <Link to={page(`inbox/${item.submissionId}`)} className="text-link">
                  {item.text}
                </Link>
              ) : (
                <span className={item.code ? 'font-mono text-xs break-all' : undefined}>{item.text}</span>
              )}
              {item.at ? (
                <>
                  , <DateTime iso={item.at} />
                </>
              ) : null}
              {item.flag ? (
                <>
                  {' '}
                  <Badge tone={item.flag === copy.spam ? 'bad' : 'neutral'}>{item.flag}</Badge>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
