/**
 * The brand and the business's contact details, set once. The spec leaves them as
 * placeholders ({product}, {email}, {phone}); these are safe stand-ins until the owner
 * supplies the real ones: an example.com address and a number from Ofcom's drama range.
 */
export const site = {
  brand: 'Sterling Sats',
  tagline: 'Bitcoin education and coaching for UK professionals',
  email: 'hello@example.com',
  partnershipsEmail: 'partners@example.com',
  phone: '+44 20 7946 0321',
  phoneHref: 'tel:+442079460321',
  office: {
    lines: ['Sterling Sats Ltd', '1 Example Court', 'London', 'EC1A 1AA', 'United Kingdom'],
  },
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
