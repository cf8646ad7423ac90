/**
 * The inbox: every submission, newest first, filtered by form, status and dates and searched.
 * The filters and the page ("Older" follows the server's keyset cursor) live in the address's
 * query, so a reload or a shared address shows the same list.
 */
import { Link, useLocation } from 'react-router';
import { inboxCopy as copy } from '~/content/console';
import {
  FORM_TYPES,
  formTypeLabels,
  OWNER_API,
  type SubmissionPage,
  type SubmissionSummary,
} from '~/contract/console';
import { withQuery } from '~/components/console/http';
import { page, useQuery } from '~/components/console/paths';
import { useResource } from '~/components/console/data';
import { Field } from '~/components/console/fields';
import { DateFilter, FilterForm } from '~/components/console/filters';
import { Badge, PageHeading } from '~/components/console/page';
import { LoadedList } from '~/components/console/pager';
import { DataTable, DateCell, td } from '~/components/console/table';
import { DownloadLink } from '~/components/console/download';
import { IfMayUse } from '~/components/console/role';
import { submissionExportRoutes } from '~/contract/inbox';
import { LEAD_STATES, leadStateLabels } from '~/contract/lead-states';
import { LeadBadge } from './lead-work';

const FILTERS = ['form', 'status', 'state', 'from', 'to', 'q'] as const;
const columns = [copy.from_, copy.received, copy.formColumn, copy.lead, copy.excerpt];

function Filters({ params, onApply }: { params: URLSearchParams; onApply: (next: URLSearchParams) => void }) {
  return (
    <FilterForm
      names={FILTERS}
      params={params}
      onApply={onApply}
      label={copy.filtersHeading}
      apply={copy.apply}
      clear={copy.clear}
      className="sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_1fr_1fr]"
      actionsClassName="sm:col-span-2 lg:col-span-6"
    >
      <Field
        label={copy.search}
        hint={copy.searchHint}

        className="sm:col-span-2 lg:col-span-1"
      >
        {(control) => (
          <input
            {...control}
            type="search"
            name="q"
            defaultValue={params.get('q') ?? ''}
            className="field-input"
          />
        )}
      </Field>
      <Field label={copy.form}>
        {(control) => (
          <select {...control} name="form" defaultValue={params.get('form') ?? ''} className="field-input">
            <option value="">{copy.anyForm}</option>
            {FORM_TYPES.map((form) => (
              <option key={form} value={form}>
                {formTypeLabels[form]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={copy.status}>
        {(control) => (
          <select
            {...control}
            name="status"
            defaultValue={params.get('status') ?? 'received'}
            className="field-input"
          >
            {Object.entries(copy.statuses).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={copy.lead}>
        {(control) => (
          <select {...control} name="state" defaultValue={params.get('state') ?? ''} className="field-input">
            <option value="">{copy.anyLead}</option>
            {LEAD_STATES.map((state) => (
              <option key={state} value={state}>
                {leadStateLabels[state]}
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

/** A person as a list shows them: the name, then the address. */
export function Sender({
  item,
  to,
  back,
}: {
  item: Pick<SubmissionSummary, 'name' | 'email' | 'company'>;
  /** The submission's page, when the name links to it; `back` is the list to return to. */
  to?: string;
  back?: string;
}) {
  const name = item.name || item.email;
  return (
    <>
      <span className="block font-medium wrap-anywhere">
        {to ? (
          <Link to={to} state={{ back }} className="text-link">
            {name}
          </Link>
        ) : (
          name
        )}
      </span>
      <span className="block break-all text-ink-600">{item.email}</span>
      {item.company ? <span className="block wrap-anywhere text-ink-600">{item.company}</span> : null}
    </>
  );
}

export function InboxPage() {
  const [params, setParams] = useQuery();
  const location = useLocation();
  const query = Object.fromEntries([...FILTERS, 'after'].map((k) => [k, params.get(k)]));
  const [list, reload] = useResource<SubmissionPage>(withQuery('/submissions', query));

  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <Filters key={params.toString()} params={params} onApply={(next) => setParams(next)} />
      <IfMayUse route={submissionExportRoutes.csv}>
        <p className="mt-2">
          <DownloadLink
            href={withQuery(`${OWNER_API}/exports/submissions.csv`, { ...query, after: null })}
            className="text-link"
          >
            {copy.download}
          </DownloadLink>
        </p>
      </IfMayUse>
      <LoadedList resource={list} reload={reload} count={copy.count} pager={copy}>
        {(data) => (
          <DataTable label={copy.tableLabel} minWidth="min-w-[46rem]" columns={columns}>
            {data.items.map((item) => (
              <tr key={item.id}>
                <td className={td}>
                  <Sender
                    item={item}
                    to={page(`inbox/${item.id}`)}
                    back={`${location.pathname}${location.search}`}
                  />
                </td>
                <DateCell iso={item.receivedAt} />
                <td className={td}>
                  {formTypeLabels[item.formType] ?? item.formType}
                  {item.spam ? (
                    <span className="ml-2">
                      <Badge tone="bad">{copy.spamBadge}</Badge>
                    </span>
                  ) : null}
                </td>
                <td className={td}>{item.spam ? null : <LeadBadge state={item.state} />}</td>
                <td className={`${td} max-w-xs wrap-anywhere text-ink-700`}>{item.excerpt ?? ''}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </LoadedList>
    </>
  );
}
