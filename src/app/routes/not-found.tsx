import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { notFound, notFoundSeo } from '~/content/not-found';
import { NOT_FOUND_PATH } from '~/content/routes';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta({ path: NOT_FOUND_PATH, ...notFoundSeo, noindex: true });

export default function NotFound() {
  const location = useLocation();
  useEffect(() => {
    // The spec asks for the missing path in the console; it helps spot broken links.
    console.error(notFound.logMessage, location.pathname);
  }, [location.pathname]);
  return (
    <section className="hero-surface">
      <div className="mx-auto flex max-w-3xl flex-col items-center px-4 pt-36 pb-28 text-center">
        <p aria-hidden="true" className="text-8xl font-bold tracking-tight text-brand-700">
          {notFound.code}
        </p>
        <h1 className="mt-4 text-3xl font-bold text-ink-900 sm:text-4xl">
          <span className="sr-only">{notFound.code}: </span>
          {notFound.title}
        </h1>
        <p className="mt-4 max-w-xl text-lg leading-relaxed text-ink-700">{notFound.text}</p>
        <Link to={notFound.cta.to} className="btn btn-primary mt-8">
          {notFound.cta.label}
        </Link>
      </div>
    </section>
  );
}
