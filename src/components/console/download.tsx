/**
 * A console download (a CSV export, a person's data) that says how it went (decision 033). The
 * link is a real link to the file; a plain click fetches it, and only a file that arrived whole
 * is saved (from memory, under the server's file name). A refusal (another export running: 409)
 * is shown with the server's sentence; a file cut short (the connection ended before its end, or
 * the server's last row says it failed) is not saved and the console says the export failed.
 */
import { useState, type MouseEvent, type ReactNode, type Ref } from 'react';
import { downloadCopy } from '~/content/console';
import { useNotify } from './notices';

/** The file name of a `content-disposition: attachment; filename="..."` header. */
export function attachmentName(header: string | null, fallback: string): string {
  const name = /filename="([^"]+)"/.exec(header ?? '')?.[1];
  return name && /^[\w.-]+$/.test(name) ? name : fallback;
}

type Outcome = { ok: true; name: string } | { ok: false; error: string };

/** Fetches `href` whole: the file, or why there is none. */
async function fetchWhole(href: string): Promise<Outcome & { blob?: Blob }> {
  let response: Response;
  try {
    response = await fetch(href, { credentials: 'same-origin', cache: 'no-store' });
  } catch {
    return { ok: false, error: downloadCopy.failed };
  }
  if (!response.ok) {
    let error = downloadCopy.failed;
    try {
      const payload = (await response.json()) as { error?: unknown };
      if (typeof payload.error === 'string') error = payload.error;
    } catch {
      // Not JSON: the general sentence.
    }
    return { ok: false, error };
  }
  let blob: Blob;
  try {
    // Rejects when the connection ends before the file does (the server cuts a failed export).
    blob = await response.blob();
  } catch {
    return { ok: false, error: downloadCopy.failed };
  }
  // The server's last row of a failed export, in case a connection ended as if whole: a row of
  // its own at the very end, which a visitor's text in a cell cannot be (a cell is never a whole
  // last line: another cell follows it, or a line break in it has it quoted).
  const tail = await blob.slice(Math.max(0, blob.size - 200)).text();
  if (tail.endsWith(`\n${downloadCopy.cutRow}\r\n`)) return { ok: false, error: downloadCopy.failed };
  const fallback = new URL(href, window.location.href).pathname.split('/').pop() ?? 'download';
  return { ok: true, name: attachmentName(response.headers.get('content-disposition'), fallback), blob };
}

/** Saves `blob` as `name` through the browser's download. */
function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken the file by then; the memory goes back.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function DownloadLink({
  href,
  children,
  className,
  ref,
  'aria-describedby': describedBy,
}: {
  href: string;
  children: ReactNode;
  className?: string;
  ref?: Ref<HTMLAnchorElement>;
  'aria-describedby'?: string;
}) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  async function onClick(event: MouseEvent<HTMLAnchorElement>) {
    // A click that asks for something else (a new tab, a menu) is the browser's.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    notify({ tone: 'success', text: downloadCopy.running });
    const outcome = await fetchWhole(href);
    setBusy(false);
    if (!outcome.ok) {
      notify({ tone: 'error', text: outcome.error });
      return;
    }
    save(outcome.blob!, outcome.name);
    notify({ tone: 'success', text: downloadCopy.done(outcome.name) });
  }
  return (
    <a
      ref={ref}
      href={href}
      download
      className={className}
      aria-describedby={describedBy}
      aria-busy={busy || undefined}
      onClick={(event) => void onClick(event)}
    >
      {children}
    </a>
  );
}
