/**
 * The guide form's validation and sending, fetched by the form on first use (see
 * docs/decisions/007): the same `GuideSchema` the server uses, kept off the home page's first load.
 * What a sent form shows (the toast and the Thank You view) comes in the same chunk (decision 006).
 */
import { submitForm } from '~/lib/api-client';
import type { SpamTrapFields } from '~/lib/spam-traps';
import { GuideSchema, toGuideRequest, type GuideValues } from './guide-schema';

export { GuideThanks, toastDownloading } from './guide-thanks';

export type GuideField = 'firstName' | 'email' | 'company' | 'consent';
export type GuideErrors = Partial<Record<GuideField, string>>;

/** The first message for each invalid field, as the form shows them. */
export function validateGuide(
  raw: Record<GuideField, unknown>,
): { ok: true; values: GuideValues } | { ok: false; errors: GuideErrors } {
  const parsed = GuideSchema.safeParse(raw);
  if (parsed.success) return { ok: true, values: parsed.data };
  const errors: GuideErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as GuideField;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

export function sendGuide(values: GuideValues, traps: SpamTrapFields) {
  return submitForm({ ...toGuideRequest(values), ...traps });
}
