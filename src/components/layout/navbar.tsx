import { Menu, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { navCta, navLinks, site } from '~/content/site';
import { BrandMark } from './brand-mark';

/** The spec turns the bar solid once the page is scrolled more than this. */
export const NAVBAR_SOLID_AFTER_PX = 10;

export function Navbar() {
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > NAVBAR_SOLID_AFTER_PX);
    // The first reading waits for the next frame: reading scrollY right after hydration would
    // make the browser lay the page out in the middle of React's work.
    const frame = requestAnimationFrame(onScroll);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      // Focus would otherwise be lost inside the menu that just closed.
      buttonRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const solid = scrolled || menuOpen;
  const close = () => setMenuOpen(false);

  return (
    <header
      data-solid={solid ? 'true' : 'false'}
      className={
        'fixed inset-x-0 top-0 z-50 transition-colors duration-200 ' +
        (solid ? 'bg-white shadow-sm' : 'bg-transparent')
      }
    >
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
        <Link
          to="/"
          className="flex items-center gap-2 rounded-md text-lg font-bold tracking-tight text-ink-900"
          onClick={close}
        >
          <BrandMark />
          <span>{site.brand}</span>
        </Link>
        <ul className="hidden items-center gap-1 md:flex">
          {navLinks.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end
                className={({ isActive }) =>
                  'rounded-md px-2 py-2 text-sm lg:px-3 font-medium hover:text-brand-700 ' +
                  (isActive ? 'text-brand-700' : 'text-ink-700')
                }
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="flex items-center gap-2">
          <Link to={navCta.to} className="btn btn-primary hidden sm:inline-flex">
            {navCta.label}
          </Link>
          <button
            ref={buttonRef}
            type="button"
            className="inline-flex size-11 items-center justify-center rounded-md text-ink-900 md:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            aria-label={menuOpen ? 'Close menu' : 'Open menu'}
            onClick={() => setMenuOpen((open) => !open)}
          >
            {menuOpen ? (
              <X aria-hidden="true" className="size-6" />
            ) : (
              <Menu aria-hidden="true" className="size-6" />
            )}
          </button>
        </div>
      </nav>
      <div id={menuId} hidden={!menuOpen} className="border-t border-ink-100 bg-white md:hidden">
        <ul className="mx-auto flex max-w-6xl flex-col px-4 py-2">
          {navLinks.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end
                onClick={close}
                className={({ isActive }) =>
                  'block rounded-md px-3 py-3 text-base font-medium ' +
                  (isActive ? 'text-brand-700' : 'text-ink-800')
                }
              >
                {link.label}
              </NavLink>
            </li>
          ))}
          <li className="py-2">
            <Link to={navCta.to} onClick={close} className="btn btn-primary w-full">
              {navCta.label}
            </Link>
          </li>
        </ul>
      </div>
    </header>
  );
}
