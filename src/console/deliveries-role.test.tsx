/**
 * A submission's e-mails as a helper sees them (decision 032): no "Retry", which is the owner's;
 * the owner has it on a failed e-mail. Either sees its error in words.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ConsoleRole } from '~/contract/roles';
import { NoticeProvider } from '~/components/console/notices';
import { RoleProvider } from '~/components/console/role';
import { DeliveriesTable } from './deliveries';

const failed = {
  id: 7,
  kind: 'contact.owner',
  to: 'owner@example.com',
  subject: 'New enquiry',
  status: 'failed' as const,
  attempts: 5,
  lastError: 'ECONNREFUSED',
  createdAt: '2026-01-01T10:00:00.000Z',
  sentAt: null,
  submissionId: null,
  dueAt: null,
};

const table = (role: ConsoleRole) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <RoleProvider role={role}>
        <NoticeProvider resetKey="k" initial={null}>
          <DeliveriesTable items={[failed]} onRetried={() => {}} />
        </NoticeProvider>
      </RoleProvider>
    </MemoryRouter>,
  );

describe('a submission’s e-mails by role', () => {
  it('offers the owner "Retry" on a failed e-mail', () => {
    expect(table('owner')).toContain('>Retry<');
  });
  it('says a failed e-mail’s error in words, its code kept', () => {
    expect(table('helper')).toContain('The mail relay could not be reached (ECONNREFUSED).');
  });
  it('offers a helper no "Retry"', () => {
    const html = table('helper');
    expect(html).toContain('New enquiry');
    expect(html).not.toContain('>Retry<');
  });
});
