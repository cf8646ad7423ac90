/**
 * The registration form's validation: the schema the server uses, through react-hook-form's zod
 * resolver. Loaded on first use (decision 016) so that zod is not part of the page's first load.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { RegistrationSchema } from './events-schema';

export const resolver = zodResolver(RegistrationSchema);
