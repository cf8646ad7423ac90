/**
 * The registry of personal data: every kind of row that names a person, as the feature that stores
 * it declares it (src/server/kit/personal-data.ts). The console's People screen, the subject access
 * file, erasure and the retention run loop over this list, in its order: the People screen's
 * sections, and the order retention's rules run in. A feature with personal data adds its
 * declaration here, as a form adds its handler to the dispatch table.
 */
import {
  bookingHistoryPersonalData,
  bookingPersonalData,
} from '~/features/booking/booking-personal-data.server';
import { contactPersonalData } from '~/features/contact/contact-personal-data.server';
import { eventsPersonalData } from '~/features/events/events-personal-data.server';
import { newsletterPersonalData } from '~/features/newsletter/newsletter-personal-data.server';
import type { PersonalDataRegistry } from '../kit/personal-data';
import { consentsData, emailsData, submissionsData } from '../kit/pipeline-personal-data';
import { leadNotesData } from '../console/leads';

export const PERSONAL_DATA: PersonalDataRegistry = [
  submissionsData,
  consentsData,
  leadNotesData,
  contactPersonalData,
  bookingPersonalData,
  bookingHistoryPersonalData,
  eventsPersonalData,
  newsletterPersonalData,
  emailsData,
];
