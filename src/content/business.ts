/**
 * The business's own details as the public site shows them (the owner sets them in the console:
 * src/features/business). The spec's {email} and {phone} are these. Until they are set the site
 * shows no contact details at all, never a stand-in. A testimonial is here only when the owner
 * marked it as a real client's words and recorded the client's permission and its date.
 */
export type Testimonial = {
  readonly quote: string;
  readonly author: string;
  readonly role: string;
  readonly city: string;
};

export type BusinessDetails = {
  /** The company's name, as on the footer and in the e-mails ("Sterling Sats Ltd"). */
  readonly name: string;
  readonly email: string;
  /** As the owner writes it ("020 7946 0321"); empty when none is given. */
  readonly phone: string;
  /** The office's postal address, one line each. */
  readonly address: readonly string[];
  /** Companies House number; empty when none is given. */
  readonly companyNumber: string;
  readonly founder: {
    readonly name: string;
    readonly bio: string;
    /** The photo's address on the site, or null. */
    readonly photo: string | null;
  };
  /** Real clients' words, with their permission recorded. */
  readonly testimonials: readonly Testimonial[];
};

/** A phone number as a `tel:` link: its digits and a leading +. */
export function phoneHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
