import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta({
    path: '/404',
    title: 'Page not found',
    description: 'The page you were looking for does not exist.',
    noindex: true,
  });

export default function NotFound() {
  const location = useLocation();
  useEffect(() => {
    console.error('404 Error: User attempted to access non-existent route:', location.pathname);
  }, [location.pathname]);
  return (
    <section className="mx-auto flex max-w-3xl flex-col items-center px-4 pt-32 pb-24 text-center">
      <h1 className="text-6xl font-bold text-ink-900">404</h1>
      <p className="mt-4 text-2xl font-semibold">Oops! Page not found</p>
      <p className="mt-3 text-ink-700">
        The page you are looking for may have moved, or the address may be mistyped.
      </p>
      <Link to="/" className="btn btn-primary mt-8">
        Return to Home
      </Link>
    </section>
  );
}
