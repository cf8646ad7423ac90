/**
 * How the owner's console names the fields of a stored submission. A field with no label here
 * is shown by its own name, so a new form's fields are never hidden; the fields listed in
 * HIDDEN_FIELDS are machinery (the form type, spam traps, the fill-time token), not what the
 * visitor wrote.
 */
const LABELS: Record<string, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  phone: 'Phone',
  company: 'Company',
  role: 'Job title',
  subject: 'Subject',
  message: 'Message',
  notes: 'Notes',
  sessionType: 'Session format',
  firstChoiceDate: 'First choice date',
  firstChoiceTime: 'First choice time',
  secondChoiceDate: 'Second choice date',
  secondChoiceTime: 'Second choice time',
  consent: 'Consent given',
  consentVersion: 'Consent version',
};

export const HIDDEN_FIELDS: ReadonlySet<string> = new Set([
  'formType',
  'website',
  'formToken',
  'formStartedAt',
]);

export function fieldLabel(name: string): string {
  return LABELS[name] ?? name;
}

const ORDER = Object.keys(LABELS);

/** Where a field comes in reading order (first name before last): the labels' order, others after. */
export function fieldOrder(name: string): number {
  const at = ORDER.indexOf(name);
  return at === -1 ? ORDER.length : at;
}
