/**
 * The Submissions export area: the CSV of an inbox view, with the screen's filters and every
 * page of it (the rows and columns are exports.ts's), written to the audit log.
 */
import { submissionExportRoutes } from '~/contract/inbox';
import { audit } from '../kit/audit';
import { CSV_TYPE, csvStream } from '../kit/http/csv';
import type { ConsoleArea } from '../kit/http/owner-routes';
import { SUBMISSION_HEADERS, submissionRows } from './exports';

export const submissionsExportArea: ConsoleArea = (routes, { db, clock, giveWay }) => {
  routes.on(submissionExportRoutes.csv, async ({ query, owner }) => {
    await audit(db, owner.email, 'export.submissions', query.form ?? 'all', {
      status: query.status,
      search: Boolean(query.q),
    });
    return {
      name: `submissions-${clock().toISOString().slice(0, 10)}.csv`,
      type: CSV_TYPE,
      body: csvStream(SUBMISSION_HEADERS, submissionRows(db, query), giveWay),
    };
  });
};
