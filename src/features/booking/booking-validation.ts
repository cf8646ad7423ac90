/**
 * The wizard's validation: the same schema the server uses, through react-hook-form's zod
 * resolver. Loaded on first use (decision 013) so that zod is not part of the page's first load.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { BookingSchema } from './booking-schema';

export const resolver = zodResolver(BookingSchema);
export { canContinue } from './booking-schema';
