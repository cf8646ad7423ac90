/**
 * The overview: whether mail is getting through, whether the backups and the server need the
 * owner's eye (the System page's warnings), what waits for the owner (articles whose figures are
 * of an earlier tax year among it), the latest leads, what comes next in the diary, leads a week
 * over eight weeks, and new leads by form.
 */
import { Link } from 'react-router';
import { overviewCopy as copy } from '~/content/console';
import { deliveryRoutes, formTypeLabels, type Overview } from '~/contract/console';
import { systemRoutes } from '~/contract/system';
import { page } from '~/components/console/paths';
import { Loaded, useResource } from '~/components/console/data';
import { Banner, PageHeading } from '~/components/console/page';
import { IfMayUse } from '~/components/console/role';
import { DataTable, numeric, td } from '~/components/console/table';
import { DateTime } from '~/components/console/dates';
import { formatLongDate } from '~/lib/uk-dates';
import { articleRoutes } from '~/features/publishing/articles-console-contract';
import { LeadBadge } from './lead-work';

/** The newest leads, each with where it stands and a link to it. */
function LatestLeads({ items }: { items: Overview['latestLeads'] }) {
  return (
    <section aria-labelledby="overview-latest" className="card">
      <h2 id="overview-latest" className="text-xl font-semibold">
        {copy.latestHeading}
      </h2>
      {items.length === 0 ? (
        <p className="mt-2 text-ink-700">{copy.latestNone}</p>
      ) : (
        <ul className="mt-2 divide-y divide-ink-100">
          {items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-baseline gap-x-2 py-2">
              <Link to={page(`inbox/${item.id}`)} className="text-link font-medium wrap-anywhere">
                {item.name || item.email}
              </Link>
              <span className="text-sm text-ink-700">
                {formTypeLabels[item.formType] ?? item.formType}, <DateTime iso={item.receivedAt} />
              </span>
              <LeadBadge state={item.state} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The sessions and masterclasses of the next days, soonest first. */
function NextUpList({ items }: { items: Overview['nextUp'] }) {
  return (
    <section aria-labelledby="overview-next" className="card">
      <h2 id="overview-next" className="text-xl font-semibold">
        {copy.nextHeading}
      </h2>
      {items.length === 0 ? (
        <p className="mt-2 text-ink-700">{copy.nextNone}</p>
      ) : (
        <ul className="mt-2 divide-y divide-ink-100">
          {items.map((item) => (
            <li key={`${item.consolePath}-${item.start.date}-${item.start.time}`} className="py-2">
              <Link to={page(item.consolePath)} className="text-link font-medium wrap-anywhere">
                {item.summary}
              </Link>
              <span className="block text-sm text-ink-700">
                {formatLongDate(item.start.date)}, {item.start.time}-{item.end.time}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Leads a week, as a table whose bars show the trend; the sentence says this week against the last. */
function Trend({ weeks }: { weeks: Overview['weeks'] }) {
  const most = Math.max(1, ...weeks.map((w) => w.count));
  const now = weeks.at(-1)?.count ?? 0;
  const before = weeks.at(-2)?.count ?? 0;
  return (
    <section aria-labelledby="overview-trend" className="mt-8">
      <h2 id="overview-trend" className="text-xl font-semibold">
        {copy.trendHeading}
      </h2>
      <p className="mt-1 text-ink-700">{copy.trendSentence(now, before)}</p>
      <DataTable label={copy.trendTable} minWidth="min-w-[20rem]" columns={[copy.weekOf, copy.leads]}>
        {weeks.map((week) => (
          <tr key={week.start}>
            <th scope="row" className={`${td} text-left font-medium whitespace-nowrap`}>
              {formatLongDate(week.start)}
            </th>
            <td className={`${td} w-full`}>
              <span className="flex items-center gap-2">
                <span
                  aria-hidden="true"
                  className="inline-block h-3 rounded bg-brand-600"
                  style={{ width: `${(week.count / most) * 80}%`, minWidth: week.count ? '0.25rem' : 0 }}
                />
                <span className="tabular-nums">{week.count}</span>
              </span>
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

function Tile({ label, value, to, action }: { label: string; value: number; to: string; action: string }) {
  return (
    <div className="card flex flex-col">
      <p className="text-sm font-medium text-ink-700">{label}</p>
      <p className="mt-1 text-3xl font-bold text-ink-900">{value}</p>
      <p className="mt-auto pt-3">
        <Link to={to} className="text-link">
          {action}
        </Link>
      </p>
    </div>
  );
}

export function OverviewPage() {
  const [overview, reload] = useResource<Overview>('/overview');
  return (
    <>
      <PageHeading title={copy.title}>{copy.title}</PageHeading>
      <Loaded resource={overview} reload={reload}>
        {(data) => {
          const total = data.leads.reduce(
            (sum, row) => ({ today: sum.today + row.today, week: sum.week + row.week }),
            { today: 0, week: 0 },
          );
          return (
            <>
              <Banner heading={copy.mailWarningsHeading} items={data.mailWarnings}>
                <IfMayUse route={deliveryRoutes.list}>
                  <p className="mt-2">
                    <Link to={page('deliveries')} className="text-link">
                      {copy.openDeliveries}
                    </Link>
                  </p>
                </IfMayUse>
              </Banner>
              <Banner heading={copy.calendarWarningsHeading} items={data.calendarWarnings}>
                <p className="mt-2">
                  <Link to={page('availability')} className="text-link">
                    {copy.openAvailability}
                  </Link>
                </p>
              </Banner>
              <Banner heading={copy.systemWarningsHeading} items={data.systemWarnings}>
                <IfMayUse route={systemRoutes.view}>
                  <p className="mt-2">
                    <Link to={page('system')} className="text-link">
                      {copy.openSystem}
                    </Link>
                  </p>
                </IfMayUse>
              </Banner>
              <Banner heading={copy.configWarningsHeading} items={data.configWarnings} />
              <Banner heading={copy.setupWarningsHeading} items={data.setupWarnings}>
                <p className="mt-2">
                  <Link to={page('business')} className="text-link">
                    {copy.openBusiness}
                  </Link>
                </p>
              </Banner>
              <Banner
                heading={copy.datedArticlesHeading}
                items={data.datedArticles.map((article) => copy.datedArticle(article.title, article.taxYear))}
              >
                <IfMayUse route={articleRoutes.list}>
                  <p className="mt-2">
                    <Link to={page('articles')} className="text-link">
                      {copy.openArticles}
                    </Link>
                  </p>
                </IfMayUse>
              </Banner>

              <div className="mt-6 grid gap-4 sm:grid-cols-2">
                <Tile
                  label={copy.bookingsAwaiting}
                  value={data.bookingsAwaitingAnswer}
                  to={page('bookings')}
                  action={copy.openBookings}
                />
                <Tile label={copy.spamHeld} value={data.spamHeld} to={page('spam')} action={copy.openSpam} />
              </div>

              <div className="mt-6 grid gap-4 lg:grid-cols-2">
                <LatestLeads items={data.latestLeads} />
                <NextUpList items={data.nextUp} />
              </div>

              <Trend weeks={data.weeks} />

              <section aria-labelledby="overview-leads" className="mt-8">
                <h2 id="overview-leads" className="text-xl font-semibold">
                  {copy.leadsHeading}
                </h2>
                <DataTable
                  label={copy.leadsTable}
                  minWidth="min-w-[20rem]"
                  columns={[copy.form, numeric(copy.today), numeric(copy.week)]}
                >
                  {data.leads.map((row) => (
                    <tr key={row.formType}>
                      <th scope="row" className={`${td} text-left font-medium`}>
                        <Link to={`${page('inbox')}?form=${row.formType}`} className="text-link">
                          {formTypeLabels[row.formType] ?? row.formType}
                        </Link>
                      </th>
                      <td className={`${td} text-right tabular-nums`}>{row.today}</td>
                      <td className={`${td} text-right tabular-nums`}>{row.week}</td>
                    </tr>
                  ))}
                  <tr>
                    <th scope="row" className={`${td} text-left font-semibold`}>
                      {copy.total}
                    </th>
                    <td className={`${td} text-right font-semibold tabular-nums`}>{total.today}</td>
                    <td className={`${td} text-right font-semibold tabular-nums`}>{total.week}</td>
                  </tr>
                </DataTable>
                <p className="mt-3">
                  <Link to={page('inbox')} className="text-link">
                    {copy.openInbox}
                  </Link>
                </p>
              </section>
            </>
          );
        }}
      </Loaded>
    </>
  );
}
