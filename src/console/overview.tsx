/** The overview: new leads by form, what waits for the owner, and whether mail is getting through. */
import { Link } from 'react-router';
import { overviewCopy as copy } from '~/content/console';
import { deliveryRoutes, formTypeLabels, type Overview } from '~/contract/console';
import { page } from '~/components/console/paths';
import { Loaded, useResource } from '~/components/console/data';
import { Banner, PageHeading } from '~/components/console/page';
import { IfMayUse } from '~/components/console/role';
import { TableBox, td, th } from '~/components/console/table';

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
              <Banner heading={copy.configWarningsHeading} items={data.configWarnings} />

              <div className="mt-6 grid gap-4 sm:grid-cols-2">
                <Tile
                  label={copy.bookingsAwaiting}
                  value={data.bookingsAwaitingAnswer}
                  to={page('bookings')}
                  action={copy.openBookings}
                />
                <Tile label={copy.spamHeld} value={data.spamHeld} to={page('spam')} action={copy.openSpam} />
              </div>

              <section aria-labelledby="overview-leads" className="mt-8">
                <h2 id="overview-leads" className="text-xl font-semibold">
                  {copy.leadsHeading}
                </h2>
                <TableBox label={copy.leadsTable}>
                  <table className="w-full border-collapse">
                    <thead>
                      <tr>
                        <th scope="col" className={th}>
                          {copy.form}
                        </th>
                        <th scope="col" className={`${th} text-right`}>
                          {copy.today}
                        </th>
                        <th scope="col" className={`${th} text-right`}>
                          {copy.week}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
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
                    </tbody>
                    <tfoot>
                      <tr>
                        <th scope="row" className={`${td} text-left font-semibold`}>
                          {copy.total}
                        </th>
                        <td className={`${td} text-right font-semibold tabular-nums`}>{total.today}</td>
                        <td className={`${td} text-right font-semibold tabular-nums`}>{total.week}</td>
                      </tr>
                    </tfoot>
                  </table>
                </TableBox>
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
