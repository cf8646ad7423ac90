import { describe, expect, it } from 'vitest';
import {
  deliveryErrorKind,
  deliveryErrorWords,
  isMailboxGone,
  isRecipientRefusal,
  lastSendFailedWarning,
} from './delivery-errors';

describe('a delivery error in words', () => {
  it('says a recipient refused for good may not exist, with its reply code', () => {
    expect(deliveryErrorWords('EENVELOPE 550')).toBe(
      "The recipient's mail server refused this address (550): it may not exist.",
    );
    expect(deliveryErrorWords('EENVELOPE 553')).toContain('(553)');
  });

  it('says an e-mail sent back later (a bounce report) may be to an address that does not exist', () => {
    expect(deliveryErrorKind('EBOUNCE 5.1.1')).toBe('bounced');
    expect(deliveryErrorWords('EBOUNCE 5.1.1')).toBe(
      "The recipient's mail server sent this e-mail back (EBOUNCE 5.1.1): the address may not exist.",
    );
    expect(isRecipientRefusal('EBOUNCE 5.1.1')).toBe(false);
  });

  it('tells a mailbox that is gone from a refusal about our sender or by the relay', () => {
    expect(isMailboxGone('EENVELOPE 550 5.1.1')).toBe(true);
    expect(isMailboxGone('EENVELOPE 550 5.2.1')).toBe(true);
    expect(isMailboxGone('EENVELOPE 550')).toBe(false);
    expect(isMailboxGone('EENVELOPE 550 5.7.1')).toBe(false);
    expect(isMailboxGone('EENVELOPE 450 4.2.2')).toBe(false);
    // 5.1.8 at RCPT TO is our sending domain refused: the relay's matter, not this recipient's.
    expect(isRecipientRefusal('EENVELOPE 550 5.1.8')).toBe(false);
    expect(isMailboxGone('EENVELOPE 550 5.1.8')).toBe(false);
  });

  it('says a 4xx is for now, and that it will be tried again while it waits', () => {
    expect(deliveryErrorWords('EMESSAGE 451', true)).toBe(
      'The mail server was busy or refused for now (451); it will be tried again.',
    );
    expect(deliveryErrorWords('EENVELOPE 450', true)).toBe(
      'The mail server was busy or refused for now (450); it will be tried again.',
    );
    // A stored reply alone (no code) reads the same; failed for good, no promise of another try.
    expect(deliveryErrorWords('451')).toBe('The mail server was busy or refused for now (451).');
  });

  it('says the relay could not be reached, for each connection failure', () => {
    expect(deliveryErrorWords('ECONNREFUSED')).toBe('The mail relay could not be reached (ECONNREFUSED).');
    for (const code of ['ESOCKET', 'ECONNECTION', 'EDNS', 'ENOTFOUND']) {
      expect(deliveryErrorWords(code, true)).toBe(
        `The mail relay could not be reached (${code}); it will be tried again.`,
      );
    }
  });

  it('says the relay refused the sign-in', () => {
    expect(deliveryErrorWords('EAUTH')).toBe(
      'The mail relay refused the sign-in (EAUTH): check the user name and password in SMTP_URL.',
    );
    expect(deliveryErrorWords('EAUTH 535')).toContain('refused the sign-in (EAUTH 535)');
  });

  it('says the relay took too long, or could not be reached securely', () => {
    expect(deliveryErrorWords('ETIMEDOUT')).toBe('The mail relay took too long to answer (ETIMEDOUT).');
    expect(deliveryErrorWords('ESENDDEADLINE', true)).toBe(
      'The mail relay took too long to answer (ESENDDEADLINE); it will be tried again.',
    );
    expect(deliveryErrorWords('ETLS')).toBe(
      'A secure connection to the mail relay could not be made (ETLS).',
    );
  });

  it('tells a refused sender and a refused message from a refused recipient', () => {
    expect(deliveryErrorWords('ESENDER 553')).toBe(
      'The mail relay refused the sending address (ESENDER 553): check the MAIL_FROM setting.',
    );
    expect(deliveryErrorWords('EMESSAGE 554')).toBe('The mail server refused this e-mail (554).');
  });

  it('says a scheduled e-mail was too late, and anything else generically, code kept', () => {
    expect(deliveryErrorWords('late')).toBe('It was not sent: its time had passed.');
    expect(deliveryErrorWords('ENOTDIR')).toBe('The e-mail could not be sent (ENOTDIR).');
    expect(deliveryErrorWords('ERROR', true)).toBe(
      'The e-mail could not be sent (ERROR); it will be tried again.',
    );
  });

  it('is always a sentence', () => {
    for (const code of ['EENVELOPE 550', 'EMESSAGE 451', 'ESOCKET', 'EAUTH', 'late', 'X', '']) {
      expect(deliveryErrorWords(code)).toMatch(/^[A-Z].*[.!?]$/);
      expect(deliveryErrorWords(code, true)).toMatch(/^[A-Z].*[.!?]$/);
    }
  });
});

describe('a refusal of the recipient for good', () => {
  it('is a 5xx with EENVELOPE, and nothing else', () => {
    expect(isRecipientRefusal('EENVELOPE 550')).toBe(true);
    expect(isRecipientRefusal('EENVELOPE 554')).toBe(true);
    expect(isRecipientRefusal('EENVELOPE 451')).toBe(false);
    expect(isRecipientRefusal('ESENDER 550')).toBe(false);
    expect(isRecipientRefusal('EMESSAGE 550')).toBe(false);
    expect(isRecipientRefusal('EAUTH 535')).toBe(false);
    expect(isRecipientRefusal('ESOCKET')).toBe(false);
    expect(isRecipientRefusal('550')).toBe(false);
    expect(deliveryErrorKind('EENVELOPE 550')).toBe('recipient-refused');
  });

  it('tells a refused mailbox from a relay refusing at RCPT TO by the enhanced status', () => {
    expect(isRecipientRefusal('EENVELOPE 550 5.1.1')).toBe(true);
    expect(isRecipientRefusal('EENVELOPE 550 5.1.10')).toBe(true);
    expect(isRecipientRefusal('EENVELOPE 550 5.2.1')).toBe(true);
    // "Relaying denied", "client blocked": the relay's own policy, which every e-mail meets.
    expect(isRecipientRefusal('EENVELOPE 554 5.7.1')).toBe(false);
    expect(deliveryErrorKind('EENVELOPE 554 5.7.1')).toBe('message-refused');
    expect(deliveryErrorWords('EENVELOPE 550 5.1.1')).toBe(
      "The recipient's mail server refused this address (550): it may not exist.",
    );
  });
});

describe("the overview's warning", () => {
  it('says the last send failed, in the same words, and where to look', () => {
    expect(lastSendFailedWarning('ESOCKET', true)).toBe(
      'The last send failed. The mail relay could not be reached (ESOCKET); it will be tried again. See Deliveries.',
    );
  });
});
