/**
 * The browser's one way to the form endpoint. It never throws: a network failure, a refusal
 * and a server error all come back as `{ok: false}` with the server's message when there is
 * one (the spec's forms read only `error`) and the field errors to show beside the fields.
 */
export const FORM_ENDPOINT = '/api/send-contact-email';

export type ApiSuccess<T> = { ok: true; data: T };
export type ApiFailure = {
  ok: false;
  /** HTTP status, or 0 when the request did not reach the server. */
  status: number;
  error: string;
  fieldErrors?: Record<string, string>;
};
export type ApiResult<T> = ApiSuccess<T> | ApiFailure;

export async function postJson<T = { id: string }>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    return { ok: false, status: 0, error: 'The request could not be sent. Please check your connection.' };
  }
  let payload: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (typeof parsed === 'object' && parsed !== null) payload = parsed as Record<string, unknown>;
  } catch {
    // A proxy's HTML error page, or an empty answer: the status says enough.
  }
  if (!response.ok) {
    const fieldErrors =
      typeof payload.fieldErrors === 'object' && payload.fieldErrors !== null
        ? (payload.fieldErrors as Record<string, string>)
        : undefined;
    return {
      ok: false,
      status: response.status,
      error: typeof payload.error === 'string' ? payload.error : `The server answered ${response.status}.`,
      fieldErrors,
    };
  }
  return { ok: true, data: payload as T };
}

/** Sends one form: `{formType, ...fields}` plus the spam-trap fields. */
export function submitForm<T = { id: string }>(body: { formType: string } & Record<string, unknown>) {
  return postJson<T>(FORM_ENDPOINT, body);
}
