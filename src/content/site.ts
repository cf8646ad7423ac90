/**
 * The brand, set once. The business's own contact details (the spec's {email} and {phone}, the
 * office address) are the owner's, set in the console (Business details) and published with the
 * pages (src/content/business.ts); there is no stand-in for them here.
 */
export const site = {
  brand: 'Sterling Sats',
  tagline: 'Bitcoin education and coaching for UK professionals',
  copyrightYear: 2026,
  /** Shown in the footer of every page. */
  disclaimer:
    'Sterling Sats provides educational content only and not regulated financial advice. We are not authorised by the Financial Conduct Authority to give personal investment advice. Bitcoin is volatile and you could lose all the money you put in.',
} as const;

export type NavLink = { readonly label: string; readonly to: string };

export const navLinks: readonly NavLink[] = [
  { label: 'Home', to: '/' },
  { label: 'About', to: '/about' },
  { label: 'Our Services', to: '/services' },
  { label: 'AI Coaching', to: '/ai' },
  { label: 'Book a Session', to: '/book' },
  { label: 'Resources', to: '/resources' },
  { label: 'Contact', to: '/contact' },
];

export const navCta: NavLink = { label: 'Book Training', to: '/book' };

export const footerLinks: readonly NavLink[] = [
  { label: 'Our Services', to: '/services' },
  { label: 'AI Coaching', to: '/ai' },
  { label: 'Book a Session', to: '/book' },
  { label: 'About', to: '/about' },
  { label: 'Resources', to: '/resources' },
  { label: 'Contact', to: '/contact' },
  { label: 'Free Wealth Guide', to: '/resources#download-kit' },
];

export const legalLinks: readonly NavLink[] = [
  { label: 'Privacy Policy', to: '/privacy' },
  { label: 'Terms of Service', to: '/terms' },
];
