/**
 * The only module of browser code that reads build-time settings. Values are baked in at
 * build; an unset value is `undefined`, never an empty string.
 */
function clean(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export const publicEnv = {
  /** Origin used for canonical URLs and Open Graph tags, without a trailing slash. */
  publicUrl: (clean(import.meta.env.VITE_PUBLIC_URL) ?? 'http://localhost:3000').replace(/\/+$/, ''),
  vapiPublicKey: clean(import.meta.env.VITE_VAPI_PUBLIC_KEY),
  vapiAssistantId: clean(import.meta.env.VITE_VAPI_ASSISTANT_ID),
} as const;
