/**
 * An issue's page by status: what a draft, a scheduled, a sending, a paused and a sent issue
 * offer; the fields read-only once it goes out; the progress with its bar and counts; the
 * preview's frames sandboxed; the list's progress line and the paths made from the contract.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { newsletterIssuesCopy as copy } from '~/content/newsletter-console';
import { NoticeProvider } from '~/components/console/notices';
import { issueRoutes, type IssueDetail, type IssueStatus } from '../issues-console-contract';
import { apiPath, differs } from './issue-api';
import { IssueEditor } from './issue-page';
import { PreviewFrame } from './issue-preview';

const ID = '0b6f2b0e-8a4c-4f7e-9d51-3c2a1e0f9b7d';

function issueOf(status: IssueStatus, more: Partial<IssueDetail> = {}): IssueDetail {
  const going = status === 'sending' || status === 'paused' || status === 'sent';
  return {
    id: ID,
    subject: 'March: the halving, explained',
    preheader: 'Four minutes on what changes',
    body: '# Hello\n\nThe halving, explained.',
    status,
    scheduledFor: status === 'scheduled' ? '2030-03-01T09:00:00.000Z' : null,
    scheduledForLocal: status === 'scheduled' ? '2030-03-01T09:00' : null,
    startedAt: going ? '2030-03-01T09:00:00.000Z' : null,
    finishedAt: status === 'sent' ? '2030-03-01T09:05:00.000Z' : null,
    createdAt: '2030-02-20T10:00:00.000Z',
    updatedAt: '2030-02-21T10:00:00.000Z',
    articleSlug: null,
    articlePath: null,
    sitePath: null,
    progress: going
      ? {
          recipients: 1200,
          sent: status === 'sent' ? 1195 : 400,
          waiting: status === 'sent' ? 0 : 795,
          failed: 3,
          bounced: 2,
          suppressed: 2,
          cancelled: 0,
          unsubscribed: status === 'sent' ? 1 : 0,
        }
      : null,
    ...more,
  };
}

const render = (issue: IssueDetail) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <NoticeProvider resetKey="k" initial={null}>
        <IssueEditor issue={issue} onChange={() => {}} />
      </NoticeProvider>
    </MemoryRouter>,
  );

/** The opening tag of the control named `name`. */
const tagOf = (html: string, tag: string, name: string) =>
  new RegExp(`<${tag}[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? '';

const button = (label: string) => new RegExp(`<button[^>]*>${label}</button>`);

describe('an issue’s page by status', () => {
  it('a draft: editable, with the test, "Send now" (asking first) and the schedule', () => {
    const html = render(issueOf('draft'));
    expect(html).toMatch(button(copy.saveDraft));
    expect(html).toMatch(button(copy.sendTest));
    expect(html).toMatch(button(copy.sendNow));
    expect(html).toContain(copy.sendNowTitle);
    expect(html).toContain('type="datetime-local"');
    expect(html).toMatch(button(copy.schedule));
    expect(html).not.toMatch(button(copy.unschedule));
    expect(tagOf(html, 'input', 'subject')).not.toMatch(/readonly/i);
    expect(html).not.toContain('<progress');
  });

  it('a scheduled issue: its UK time, "Save changes" and "Unschedule"', () => {
    const html = render(issueOf('scheduled'));
    expect(html).toMatch(button(copy.saveChanges));
    expect(html).toMatch(button(copy.unschedule));
    expect(html).toContain('value="2030-03-01T09:00"');
    // 09:00 UTC on 1 March is 09:00 in London (GMT).
    expect(html).toContain('1 Mar 2030, 09:00');
  });

  it('a sending issue: read-only, its progress, "Pause" and "Cancel sending"', () => {
    const html = render(issueOf('sending'));
    expect(html).toContain(copy.readOnly.sending);
    expect(tagOf(html, 'input', 'subject')).toMatch(/readonly=""/i);
    expect(tagOf(html, 'textarea', 'body')).toMatch(/readonly=""/i);
    expect(html).not.toMatch(button(copy.saveDraft));
    expect(html).not.toMatch(button(copy.sendNow));
    expect(html).toMatch(
      new RegExp(`<progress[^>]*aria-label="${copy.progressLabel}"[^>]*value="405"[^>]*max="1200"`),
    );
    expect(html).toContain('405 of 1,200 recipients handled.');
    for (const label of Object.values(copy.counts)) expect(html).toContain(`>${label}</dt>`);
    expect(html).toMatch(button(copy.pause));
    expect(html).toMatch(button(copy.cancelSending));
    expect(html).not.toMatch(button(copy.resume));
  });

  it('a paused issue: "Resume" and "Cancel sending"', () => {
    const html = render(issueOf('paused'));
    expect(html).toMatch(button(copy.resume));
    expect(html).toMatch(button(copy.cancelSending));
    expect(html).not.toMatch(button(copy.pause));
  });

  it('a sent issue: its counts, and nothing left to do', () => {
    const html = render(issueOf('sent'));
    expect(html).toContain(copy.readOnly.sent);
    expect(html).toContain('1,195');
    expect(html).not.toMatch(button(copy.cancelSending));
    expect(html).not.toMatch(button(copy.sendTest));
  });
});

describe('the preview and the requests', () => {
  it('shows the e-mail in a sandboxed frame that runs no script', () => {
    const html = renderToStaticMarkup(
      <PreviewFrame
        id="p"
        heading="At desktop width"
        title="The e-mail"
        width="w-[600px]"
        html="<p>Hi</p>"
      />,
    );
    expect(html).toContain('sandbox=""');
    expect(html).toContain('srcDoc="&lt;p&gt;Hi&lt;/p&gt;"');
    expect(html).toContain('title="The e-mail"');
  });

  it('fills a route’s id, and says which changes are unsaved', () => {
    expect(apiPath(issueRoutes.send, ID)).toBe(`/newsletter/issues/${ID}/send`);
    expect(apiPath(issueRoutes.list)).toBe('/newsletter/issues');
    const saved = { subject: 'A', preheader: '', body: 'B' };
    expect(differs({ subject: ' A ', preheader: '', body: 'B\n' }, saved)).toBe(false);
    expect(differs({ subject: 'A', preheader: 'x', body: 'B' }, saved)).toBe(true);
  });

  it('words a progress line with only the counts that happened', () => {
    const p = {
      recipients: 10,
      sent: 7,
      waiting: 2,
      failed: 1,
      bounced: 0,
      suppressed: 0,
      cancelled: 0,
      unsubscribed: 0,
    };
    expect(copy.progressLine(p)).toBe('7 of 10 sent, 2 waiting, 1 failed');
  });
});
