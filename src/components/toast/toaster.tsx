import { lazy, Suspense } from 'react';
import { useToasts } from './toast-store';

// Radix Toast weighs about 15 KB gzip, more than a tenth of the home page's JavaScript
// budget. It is fetched with the first toast instead, so no page pays for it up front; the
// store (and so `toast()`) is always there.
const ToastArea = lazy(() => import('./toast-area').then((m) => ({ default: m.ToastArea })));

/** The site's one toaster, mounted once in the root layout. */
export function Toaster() {
  const toasts = useToasts();
  if (toasts.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <ToastArea toasts={toasts} />
    </Suspense>
  );
}
