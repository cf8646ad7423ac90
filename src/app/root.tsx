import { useEffect } from 'react';
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from 'react-router';
import type { Route } from './+types/root';
import { Footer } from '~/components/layout/footer';
import { publishedContext } from './published';
import { Navbar } from '~/components/layout/navbar';
import { Toaster } from '~/components/toast/toaster';
import './app.css';

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

/**
 * The business's own details, for the footer and the pages that show them: what is published when
 * the server renders the pages (decision 047), none in the build's prerender (no stand-ins).
 */
export function loader({ context }: Route.LoaderArgs) {
  return { business: context.get(publishedContext)?.business ?? null };
}

/** The details change only with a publication, whose pages carry them: no request on navigation. */
export const shouldRevalidate = () => false;

export function Layout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en-GB">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0b1f3a" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-white text-ink-900 antialiased">
        <a href="#main" className="skip-link">
          Skip to content
        </a>
        <Navbar />
        <main id="main" tabIndex={-1} className="flex-1 outline-none">
          {children}
        </main>
        <Footer />
        <Toaster />
        {/* Scrolls to the top on a new route, or to the element named by the hash. */}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  const { pathname } = useLocation();
  useEffect(() => {
    // Marks the document once React has hydrated: tests and tools wait for it.
    document.documentElement.dataset.hydrated = 'true';
    // Counts each page shown (decision 042: no cookie, nothing on the device). The beacon loads
    // after hydration, outside the first load's budget; the server leaves the console out.
    import('~/features/analytics/beacon').then(
      (beacon) => beacon.countView(),
      () => 0,
    );
  }, [pathname]);
  return <Outlet />;
}

export function HydrateFallback() {
  return null;
}

export function ErrorBoundary() {
  return (
    <section className="mx-auto max-w-3xl px-4 pt-32 pb-24 text-center">
      <h1 className="text-3xl font-bold">Unexpected Application Error!</h1>
      <p className="mt-4 text-ink-700">
        Something went wrong while showing this page. Please reload, or return to the home page.
      </p>
      <a href="/" className="btn btn-primary mt-8">
        Return to Home
      </a>
    </section>
  );
}
