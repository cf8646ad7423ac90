import { type RouteConfig, index, route } from '@react-router/dev/routes';

export default [
  index('routes/home.tsx'),
  route('about', 'routes/about.tsx'),
  route('services', 'routes/services.tsx'),
  route('ai', 'routes/ai.tsx', { id: 'ai' }),
  route('ai-coaching', 'routes/ai.tsx', { id: 'ai-coaching' }),
  route('book', 'routes/book.tsx'),
  route('resources', 'routes/resources.tsx'),
  route('contact', 'routes/contact.tsx'),
  route('privacy', 'routes/privacy.tsx'),
  route('terms', 'routes/terms.tsx'),
  route('booking/respond', 'routes/booking-respond.tsx'),
  route('booking/cancel', 'routes/booking-cancel.tsx'),
  route('newsletter/confirm', 'routes/newsletter-confirm.tsx'),
  route('newsletter/unsubscribe', 'routes/newsletter-unsubscribe.tsx'),
  route('*', 'routes/not-found.tsx'),
] satisfies RouteConfig;
