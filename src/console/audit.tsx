/**
 * The audit log: every sign-in and action, newest first, each as a sentence ("Ada confirmed
 * booking BK-K7WC6H"), filtered by person, kind and dates. The filters and the page live in the
 * address's query. A helper sees their own entries only, and no person filter.
 */
import { AUDIT_KIND_KEYS, AUDIT_KINDS, auditCopy as copy } from '~/content/audit';
import type { AuditPage as AuditAnswer, AuditPerson } from '~/contract/audit';
import { roleLabels } from '~/contract/roles';
import { withQuery } from '~/components/console/http';
import { useQuery } from '~/components/console/paths';
import { useResource } from '~/components/console/data';
import { Field } from '~/components/console/fields';
import { DateFilter, FilterForm } from '~/components/console/filters';
import { PageHeading } from '~/components/console/page';
import { LoadedList } from '~/components/console/pager';
import { useRole } from '~/components/console/role';
import { DataTable, DateCell, td } from '~/components/console/table';

const FILTERS = ['person', 'kind', 'from', 'to'] as const;
const columns = [copy.at, copy.what, copy.target];

function Filters({
  params,
  people,
  onApply,
}: {
  params: URLSearchParams;
  /** The people the filter can name; none: no person filter (a helper's own log). */
  people: AuditPerson[] | null;
  onApply: (next: URLSearchParams) => void;
}) {
  return (
    <FilterForm
      names={FILTERS}
      params={params}
      onApply={onApply}
      label={copy.filtersHeading}
      apply={copy.apply}
      clear={copy.clear}
      className="sm:grid-cols-2 lg:grid-cols-4"
      actionsClassName="sm:col-span-2 lg:col-span-4"
    >
      {people ? (
        <Field label={copy.person}>
          {(control) => (
            <select
              {...control}
              name="person"
              defaultValue={params.get('person') ?? ''}
              className="field-input"
            >
              <option value="">{copy.anyone}</option>
              {people.map((person) => (
                <option key={person.email} value={person.email}>
                  {`${person.name} (${roleLabels[person.role]})`}
                </option>
              ))}
              <option value="system">{copy.system}</option>
            </select>
          )}
        </Field>
      ) : null}
      <Field label={copy.kind}>
        {(control) => (
          <select {...control} name="kind" defaultValue={params.get('kind') ?? ''} className="field-input">
            <option value="">{copy.anyKind}</option>
            {AUDIT_KIND_KEYS.map((kind) => (
              <option key={kind} value={kind}>
                {AUDIT_KINDS[kind].label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <DateFilter label={copy.from} name="from" params={params} />
      <DateFilter label={copy.to} name="to" params={params} />
    </FilterForm>
  );
}

export function AuditPage() {
  const [params, setParams] = useQuery();
  const helper = useRole() === 'helper';
  const query = Object.fromEntries([...FILTERS, 'after'].map((name) => [name, params.get(name)]));
  const [log, reload] = useResource<AuditAnswer>(withQuery('/audit', query));
  const people = helper ? null : log.state === 'ready' ? log.data.people : [];
  const filtered = FILTERS.some((name) => params.get(name));
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <p className="mt-2 text-ink-700">{helper ? copy.helperIntro : copy.intro}</p>
      <Filters key={params.toString()} params={params} people={people} onApply={setParams} />
      <LoadedList
        resource={log}
        reload={reload}
        empty={filtered ? copy.emptyFiltered : copy.empty}
        pager={copy}
      >
        {(data) => (
          <DataTable label={copy.tableLabel} minWidth="min-w-[36rem]" columns={columns}>
            {data.items.map((entry) => (
              <tr key={entry.id}>
                <DateCell iso={entry.at} />
                <td className={`${td} wrap-anywhere`}>{entry.sentence}</td>
                <td className={`${td} font-mono text-xs break-all`}>{entry.target ?? ''}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </LoadedList>
    </>
  );
}
