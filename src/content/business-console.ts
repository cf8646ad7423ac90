/** The words of the console's "Business details" page (src/features/business/console) and its warnings. */
export const businessWarningWords = {
  notSet:
    'The business’s own details are not set: the site shows no contact e-mail, phone or address, and the e-mails name no postal address. Set them in Business details.',
  voiceNoKeys:
    'The voice simulator has no keys (VITE_VAPI_PUBLIC_KEY and VITE_VAPI_ASSISTANT_ID were empty when the site was built): its button on the AI coaching page can only fail. Set them and build again.',
} as const;

export const businessCopy = {
  title: 'Business details',
  intro:
    'The business’s own details, as the footer, the Contact and About pages, the search engines’ structured data and the e-mails’ footers show them. Until they are saved the site shows no contact details at all.',
  detailsHeading: 'The business',
  name: 'Business name',
  nameHint: 'as registered, e.g. Sterling Sats Ltd',
  email: 'Contact e-mail',
  phone: 'Phone',
  phoneHint: 'optional',
  address: 'Office address',
  addressHint: 'one line each',
  companyNumber: 'Company number',
  companyNumberHint: 'Companies House, optional',
  founderHeading: 'The founder',
  founderName: 'Founder’s name',
  founderBio: 'Short biography',
  photo: 'Founder’s photo',
  photoHint: 'JPEG, PNG or WebP, at most 2 MB and 4000 pixels a side',
  photoAlt: (name: string) => (name ? `Photo of ${name}` : 'The founder’s photo'),
  uploadPhoto: 'Upload photo',
  uploadingPhoto: 'Uploading…',
  removePhoto: 'Remove photo',
  photoSaved: 'The photo is saved; the site shows it in a moment.',
  photoRemoved: 'The photo is removed.',
  noPhoto: 'No photo yet.',
  testimonialsHeading: 'Testimonials',
  testimonialsIntro:
    'The home page shows a testimonial only when you confirm it is a real client’s words and record the date the client gave their permission. Until then the section is not shown.',
  testimonial: (n: number) => `Testimonial ${n}`,
  quote: 'The client’s words',
  author: 'Client’s name',
  role: 'Role',
  city: 'City',
  givenOn: 'Date given',
  real: 'These are a real client’s words, unchanged in meaning',
  permission: 'The client gave permission to show them, on',
  permissionHint: 'leave empty until they have',
  addTestimonial: 'Add a testimonial',
  removeTestimonial: (n: number) => `Remove testimonial ${n}`,
  save: 'Save details',
  saving: 'Saving…',
  saved: 'The details are saved; the site shows them in a moment.',
  lastSaved: (when: string, who: string) => `Last saved ${when} by ${who}.`,
  notSetYet: 'Not set yet: the site shows no contact details.',
} as const;
