/**
 * The e-mail exactly as a subscriber receives it (the server renders it: issueRoutes.preview):
 * its subject and preview line, its HTML at desktop (600 px) and phone (375 px) widths, and its
 * plain-text part. The HTML is shown in sandboxed frames (`sandbox=""`: no script runs, no form
 * is sent, no link leaves the console), each in a box that scrolls sideways on a narrow screen.
 */
import { useEffect, useRef } from 'react';
import { consoleCopy } from '~/content/console';
import { newsletterIssuesCopy as copy } from '~/content/newsletter-console';
import { Loaded, useResource } from '~/components/console/data';
import { DetailRow, Section } from '~/components/console/page';
import { issueRoutes, type IssueDetail, type IssuePreview } from '../issues-console-contract';
import { apiPath } from './issue-api';

/** One width of the e-mail: its heading, and the frame in a box that scrolls sideways. */
export function PreviewFrame({
  id,
  heading,
  title,
  width,
  html,
}: {
  id: string;
  heading: string;
  title: string;
  /** The frame's width, as a class: the e-mail's own 600 px, or a phone's 375 px. */
  width: 'w-[600px]' | 'w-[375px]';
  html: string;
}) {
  return (
    <div className="max-w-full min-w-0">
      <h3 id={id} className="font-semibold text-ink-900">
        {heading}
      </h3>
      <div
        role="region"
        aria-labelledby={id}
        // Focusable so the keyboard can scroll it sideways (axe: scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        className="mt-2 max-w-full overflow-x-auto rounded-lg border border-ink-200 bg-white"
      >
        <iframe sandbox="" srcDoc={html} title={title} className={`block h-[44rem] ${width} border-0`} />
      </div>
    </div>
  );
}

export function IssuePreviewSection({ issue }: { issue: IssueDetail }) {
  const [preview, reload] = useResource<IssuePreview>(apiPath(issueRoutes.preview, issue.id));
  // Saved with other words, the issue is previewed again (and only then: not on every poll).
  const content = `${issue.subject}\n${issue.preheader}\n${issue.body}`;
  const previewed = useRef(content);
  useEffect(() => {
    if (previewed.current === content) return;
    previewed.current = content;
    reload();
  }, [content, reload]);

  return (
    <Section id="issue-preview" heading={copy.previewHeading} className="mt-8">
      <p className="mt-1 max-w-prose text-ink-700">{copy.previewIntro}</p>
      <Loaded resource={preview} reload={reload}>
        {(email) => (
          <>
            <dl className="mt-4 rounded-lg border border-ink-200 bg-white px-4 py-2">
              <DetailRow label={copy.previewSubject}>{email.subject}</DetailRow>
              <DetailRow label={copy.previewPreheader}>{email.preheader || consoleCopy.none}</DetailRow>
            </dl>
            <div className="mt-6 flex flex-wrap items-start gap-6">
              <PreviewFrame
                id="issue-preview-desktop"
                heading={copy.desktop}
                title={copy.desktopFrame}
                width="w-[600px]"
                html={email.html}
              />
              <PreviewFrame
                id="issue-preview-phone"
                heading={copy.phone}
                title={copy.phoneFrame}
                width="w-[375px]"
                html={email.html}
              />
            </div>
            <details className="mt-6">
              <summary className="cursor-pointer rounded font-medium text-link">{copy.plainText}</summary>
              <pre className="mt-2 rounded-lg border border-ink-200 bg-white p-4 text-sm wrap-anywhere whitespace-pre-wrap text-ink-900">
                {email.text}
              </pre>
            </details>
          </>
        )}
      </Loaded>
    </Section>
  );
}
