/**
 * A delivery's stored error in words, for the owner. The outbox stores a short code, never the
 * relay's text (which can quote addresses): nodemailer's error code and, when the relay answered,
 * its three-digit reply ("EENVELOPE 550", "EMESSAGE 451", "ESOCKET", "EAUTH 535"). Our own codes
 * are `ESENDDEADLINE` (the relay did not finish in time) and `ESENDER` (the relay refused the
 * sending address, at MAIL FROM) and `EBOUNCE` with the enhanced status (the recipient's server
 * sent the e-mail back after accepting it, decision 045); `late` is a scheduled e-mail whose time
 * had passed; `EINDOUBT` a newsletter e-mail not sent again after a crash (decision 046).
 *
 * A reply of 5xx to the recipient (`EENVELOPE 5xx`) is a refusal of that one address for good: the
 * outbox does not try it again, and the console's overview does not warn of the relay for it.
 */

/**
 * A mailing's e-mail that was with the relay when the server stopped, unanswered (decision 046):
 * it may have arrived, so it is not sent again, and is stored as failed with this code.
 */
export const IN_DOUBT = 'EINDOUBT';

/** What went wrong with a send, as the owner needs to know it. */
export type DeliveryErrorKind =
  | 'recipient-refused'
  | 'bounced'
  | 'sender-refused'
  | 'message-refused'
  | 'temporary'
  | 'sign-in'
  | 'timeout'
  | 'secure-connection'
  | 'unreachable'
  | 'late'
  | 'in-doubt'
  | 'other';

const SIGN_IN = new Set(['EAUTH', 'ENOAUTH', 'EOAUTH2']);
const TIMEOUT = new Set(['ETIMEDOUT', 'ESENDDEADLINE']);
const SECURE = new Set(['ETLS', 'EREQUIRETLS']);
const UNREACHABLE = new Set([
  'ESOCKET',
  'ECONNECTION',
  'ECONNREFUSED',
  'ECONNRESET',
  'EDNS',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPROXY',
]);

/**
 * A stored code's parts: its name ("EENVELOPE"), the relay's reply (550) and its enhanced status
 * (5.1.1), any of them may be missing.
 */
function partsOf(code: string): {
  name: string | undefined;
  reply: number | undefined;
  status: string | undefined;
} {
  const words = code.trim().split(/\s+/);
  const reply = words.find((w) => /^\d{3}$/.test(w));
  return {
    name: words.find((w) => /^[A-Z_]/i.test(w))?.toUpperCase(),
    reply: reply ? Number(reply) : undefined,
    status: words.find((w) => /^\d\.\d{1,3}\.\d{1,3}$/.test(w)),
  };
}

/**
 * An enhanced status that is about the mailbox itself (RFC 3463: 5.1.x addressing, 5.2.1 mailbox
 * disabled), or none given: a refusal of this one address. Any other (5.7.1 "relaying denied"), and
 * 5.1.7 and 5.1.8, which are about our sending address, is the relay's own policy or our sender,
 * which every e-mail meets.
 */
const aboutTheMailbox = (status: string | undefined) =>
  status === undefined || (status.startsWith('5.1.') && !SENDER_STATUSES.has(status)) || status === '5.2.1';

/** Enhanced statuses about the sender's address (RFC 3463: bad sender mailbox, bad sender system). */
const SENDER_STATUSES = new Set(['5.1.7', '5.1.8']);

/**
 * Enhanced statuses that say the recipient's mailbox does not exist or takes no mail (RFC 3463:
 * bad destination mailbox or system, syntax, moved, null MX; mailbox disabled): the address is put
 * on the suppression list at once. A refusal without one, or with any other, fails its e-mail and
 * leaves the address alone: through one relay, a refusal may be the relay's own.
 */
const MAILBOX_GONE = new Set(['5.1.1', '5.1.2', '5.1.3', '5.1.6', '5.1.10', '5.2.1']);

/** The kind of a stored error code. */
export function deliveryErrorKind(code: string): DeliveryErrorKind {
  if (code.trim() === 'late') return 'late';
  if (code.trim() === IN_DOUBT) return 'in-doubt';
  const { name, reply, status } = partsOf(code);
  if (name === 'EBOUNCE') return 'bounced';
  if (name && SIGN_IN.has(name)) return 'sign-in';
  if (name && TIMEOUT.has(name)) return 'timeout';
  if (name && SECURE.has(name)) return 'secure-connection';
  if (name && UNREACHABLE.has(name)) return 'unreachable';
  if (reply !== undefined && reply >= 400 && reply < 500) return 'temporary';
  if (reply !== undefined && reply >= 500 && reply < 600) {
    if (name === 'EENVELOPE' && aboutTheMailbox(status)) return 'recipient-refused';
    if (name === 'ESENDER') return 'sender-refused';
    return 'message-refused';
  }
  return 'other';
}

/**
 * A refusal of the recipient's address for good (a 5xx reply to it): not tried again, and not a
 * sign that the relay itself is failing.
 */
export function isRecipientRefusal(code: string): boolean {
  return deliveryErrorKind(code) === 'recipient-refused';
}

/** A refusal for good whose enhanced status says the recipient's mailbox is gone (`MAILBOX_GONE`). */
export function isMailboxGone(code: string): boolean {
  const { status } = partsOf(code);
  return isRecipientRefusal(code) && status !== undefined && MAILBOX_GONE.has(status);
}

/** What happened, without its end: each kind's words, given what to put in brackets. */
const CAUSES: Record<DeliveryErrorKind, (bracket: string) => string> = {
  'recipient-refused': (b) => `The recipient's mail server refused this address (${b}): it may not exist`,
  'sender-refused': (b) => `The mail relay refused the sending address (${b}): check the MAIL_FROM setting`,
  'message-refused': (b) => `The mail server refused this e-mail (${b})`,
  bounced: (b) => `The recipient's mail server sent this e-mail back (${b}): the address may not exist`,
  temporary: (b) => `The mail server was busy or refused for now (${b})`,
  'sign-in': (b) => `The mail relay refused the sign-in (${b}): check the user name and password in SMTP_URL`,
  timeout: (b) => `The mail relay took too long to answer (${b})`,
  'secure-connection': (b) => `A secure connection to the mail relay could not be made (${b})`,
  unreachable: (b) => `The mail relay could not be reached (${b})`,
  late: () => 'It was not sent: its time had passed',
  'in-doubt': () =>
    'The server stopped while this e-mail was with the mail relay, which may have delivered it; it was not sent again, so that nobody receives a newsletter twice',
  other: (b) => `The e-mail could not be sent (${b})`,
};

/** Kinds whose bracket shows the relay's reply alone ("(550)"); the others show the whole code. */
const BY_REPLY = new Set<DeliveryErrorKind>(['recipient-refused', 'temporary', 'message-refused']);

/**
 * A stored error code as a sentence a non-developer understands, the code kept in brackets:
 * "The recipient's mail server refused this address (550): it may not exist." `retrying`: the
 * e-mail is waiting for another attempt, which the sentence then says.
 */
export function deliveryErrorWords(code: string, retrying = false): string {
  const kind = deliveryErrorKind(code);
  const { reply } = partsOf(code);
  const bracket = BY_REPLY.has(kind) && reply !== undefined ? String(reply) : code.trim() || 'unknown';
  const final = kind === 'late' || kind === 'in-doubt';
  return `${CAUSES[kind](bracket)}${retrying && !final ? '; it will be tried again.' : '.'}`;
}

/** The overview's warning when the newest attempt failed for a reason beyond one recipient. */
export function lastSendFailedWarning(code: string, retrying: boolean): string {
  return `The last send failed. ${deliveryErrorWords(code, retrying)} See Deliveries.`;
}
