/**
 * What the guide form shows after a successful request: the toast and the Thank You view with
 * the direct link. Only a sent form needs them, so they travel with the form's logic
 * (./guide-submit.ts, fetched on first use) rather than in the home page's first load.
 */
import { Download } from 'lucide-react';
import { toast } from '~/components/toast/toast-store';
import { guideThanks as copy } from '~/content/guide-thanks';
import { GUIDE_PDF_PATH } from './guide-file';

export function toastDownloading() {
  toast({ title: copy.downloading, description: copy.downloadingDetail });
}

export function GuideThanks() {
  return (
    <div className="card text-center" role="status" data-testid="guide-thank-you">
      <h3 className="text-2xl font-bold text-ink-900">{copy.heading}</h3>
      <p className="mt-3 text-ink-700">{copy.text}</p>
      <a href={GUIDE_PDF_PATH} target="_blank" rel="noopener" className="btn btn-primary mt-6">
        <Download aria-hidden="true" className="size-4" />
        {copy.link}
      </a>
    </div>
  );
}
