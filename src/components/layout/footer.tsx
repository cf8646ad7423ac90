import { Link, useRouteLoaderData } from 'react-router';
import type { BusinessDetails } from '~/content/business';
import { footerLinks, legalLinks, site } from '~/content/site';
import { BrandMark } from './brand-mark';

export function Footer() {
  const business = useRouteLoaderData<{ business: BusinessDetails | null }>('root')?.business;
  return (
    <footer className="bg-ink-900 text-ink-200">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-12 md:grid-cols-3">
        <div>
          <p className="flex items-center gap-2 text-lg font-bold text-white">
            <BrandMark />
            {site.brand}
          </p>
          <p className="mt-2 text-sm">{site.tagline}</p>
          {business && (
            <p className="mt-4 text-sm">
              <a className="underline hover:text-white" href={`mailto:${business.email}`}>
                {business.email}
              </a>
            </p>
          )}
        </div>
        <nav aria-label="Footer">
          <h2 className="text-sm font-semibold text-white">Explore</h2>
          <ul className="mt-3 grid grid-cols-2 gap-2 text-sm">
            {footerLinks.map((link) => (
              <li key={link.to}>
                <Link className="hover:text-white hover:underline" to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold text-white">Legal</h2>
          <ul className="mt-3 grid gap-2 text-sm">
            {legalLinks.map((link) => (
              <li key={link.to}>
                <Link className="hover:text-white hover:underline" to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="border-t border-ink-700">
        <div className="mx-auto max-w-6xl px-4 py-6 text-xs leading-relaxed">
          <p data-testid="disclaimer">{site.disclaimer}</p>
          <p className="mt-2">
            &copy; {site.copyrightYear} {business?.name ?? site.brand}. All rights reserved.
            {business?.companyNumber && ` Company number ${business.companyNumber}.`}
          </p>
        </div>
      </div>
    </footer>
  );
}
