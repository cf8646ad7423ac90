import { site } from './site';

/**
 * The free strategy session in brief: the header card of the booking page (marked Free) and
 * the card beside the home page hero. Its own module so the home page does not load the
 * booking page's copy.
 */
export const sessionCard = {
  title: `${site.brand} Strategy Session`,
  badge: 'Free',
  text: 'A private video session on your finances, your goals and whether Bitcoin has a place in your plan.',
  facts: [
    { icon: 'clock', label: '45 minutes' },
    { icon: 'video', label: 'Private video call' },
    { icon: 'mail', label: '30 days of e-mail support' },
  ],
} as const;
