/**
 * A million submissions for the bench's console part (scripts/bench-console.ts), written with
 * set-based SQL: one `insert ... select ... from generate_series(...)` per chunk of rows, every
 * value picked from the word lists below by a hash of the row's number, so a chunk is one
 * statement, never a round trip per row.
 *
 * The rows are what the forms store (`fields` is each form's schema output; the shape is
 * checked by tests/server/console-seed.test.ts) and what the product keeps in steady state:
 *  - four forms: guide downloads 35%, contact messages 25%, newsletter sign-ups 25%, booking
 *    requests 15%; UK names (surnames skewed towards the common ones, as a real list is),
 *    company and personal e-mail addresses, advisers' firms, messages in a few sentences;
 *  - received over the last 715 days (contact messages are kept 24 months) and stored in that
 *    order, as a live table is; 2% held as spam (honeypot or too fast), all within the last 29
 *    days (spam is deleted after 30), a third of that month's traffic;
 *  - the hashed client address only on the last day's rows (the sweep clears older ones);
 *  - a consent record for each delivered contact message and guide download, a booking (with
 *    its status history) for each delivered booking request, and each delivered submission's
 *    e-mails in the outbox, sent, their text removed after 30 days as retention does.
 * The tables' own indexes are dropped while the rows go in and built again after (much faster
 * than keeping them up to date row by row), with the definitions the migrations gave them. It
 * ends with VACUUM ANALYZE, as autovacuum would have run: the embedded PostgreSQL runs autovacuum
 * as an external one does.
 *
 * From the command line, into a database the server has migrated (for `--data-dir`, its server
 * stopped: the seed starts that DATA_DIR's embedded cluster itself, and stops it after):
 *   node --import tsx scripts/console-seed.ts --data-dir DATA_DIR [--count 10000] [--now ISO]
 *   node --import tsx scripts/console-seed.ts --database-url postgres://... [--count 10000]
 * It prints its steps, then one JSON line: {"seconds": ...}.
 */
import { pathToFileURL } from 'node:url';
import { consents } from '../src/content/consents';
import { SESSION_TIMES, SESSION_TYPES } from '../src/content/booking';
import { CONTACT_SUBJECTS } from '../src/features/contact/contact-fields';
import { startEmbeddedPostgres } from '../src/server/kit/db/embedded-postgres';

/** Runs one statement (no parameters) and returns its rows: a pg client's `query`. */
export type Query = (text: string) => Promise<{ rows: Record<string, unknown>[] }>;

export type SeedOptions = {
  count: number;
  /** The newest submission's time; the others go back 715 days from it. */
  now?: Date;
  /** Rows per insert statement. */
  chunk?: number;
  /** The owner's address, where the owner's notifications went. */
  ownerEmail?: string;
  log?: (line: string) => void;
  /**
   * Whether the database runs autovacuum (PostgreSQL, embedded or not: true). The seed then does
   * at once what it would do in the background, VACUUM ANALYZE, so that it does not start during
   * the bench. False leaves the tables without planner statistics.
   */
  autovacuum?: boolean;
};

export const SPAN_DAYS = 715;
export const SPAM_DAYS = 29;
/** Per thousand. */
export const FORM_SHARES = {
  masterclass: 20,
  bitcoin_guide: 340,
  contact: 250,
  newsletter: 250,
  booking: 150,
} as const;
/**
 * Masterclass registrations are kept 12 months after their event (src/content/retention.ts): the
 * seed draws them over the last MASTERCLASS_DAYS only, one event a month with its registrations.
 */
export const MASTERCLASS_DAYS = 330;
/** Places per seeded event: the later registrations of a month wait on its list. */
export const MASTERCLASS_CAPACITY = 300;
export const SPAM_PER_THOUSAND = 20;

/** Words separated by white space, as a list. */
const names = (text: string) => text.trim().split(/\s+/);

const FIRST_NAMES = names(`
  Oliver George Harry Jack Charlie Thomas James William Daniel Matthew Samuel Joseph Benjamin David
  Richard Mark Paul Andrew Stephen Simon Peter Michael Christopher Jonathan Robert Edward Henry
  Alexander Adam Luke Ryan Nathan Gareth Rhys Owen Callum Fraser Hamish Ciaran Declan Mohammed Imran
  Arjun Rohan Sanjay Vikram Chidi Tunde Kwame Wei Olivia Amelia Isla Emily Sophie Charlotte Jessica
  Hannah Lucy Grace Sarah Rachel Laura Emma Helen Claire Katherine Victoria Rebecca Natalie Joanne
  Nicola Louise Gemma Harriet Eleanor Alice Phoebe Imogen Freya Siobhan Niamh Aoife Catriona Morag
  Eilidh Bethan Carys Seren Ffion Priya Anjali Aisha Fatima Zara Amara Ngozi Mei Yasmin Leah
`);

/** UK surnames, most common first: the seed picks early ones more often (Smith ~1.6%). */
const LAST_NAMES = names(`
  Smith Jones Williams Taylor Brown Davies Evans Wilson Thomas Johnson Roberts Robinson Thompson
  Wright Walker White Edwards Hughes Green Hall Lewis Harris Clarke Patel Jackson Wood Turner Martin
  Cooper Hill Ward Morris Moore Clark Lee King Baker Harrison Morgan Allen James Scott Phillips Watson
  Davis Parker Price Bennett Young Griffiths Mitchell Kelly Cook Carter Richardson Bailey Collins Bell
  Shaw Murphy Miller Cox Richards Khan Marshall Anderson Simpson Ellis Adams Singh Begum Wilkinson
  Foster Chapman Powell Webb Rogers Gray Mason Ali Hunt Hussain Campbell Matthews Owen Palmer Holmes
  Mills Barnes Knight Lloyd Butler Russell Barker Fisher Stevens Jenkins Murray Dixon Harvey Graham
  Pearson Ahmed Fletcher Walsh Kaur Gibson Howard Andrews Stewart Elliott Reynolds Saunders Payne Fox
  Ford Pearce Day Brooks West Lawrence Cole Atkinson Bradley Spencer Gill Dawson Ball Burton O'Brien
  Watts Rose Booth Perry Ryan Grant Wells Armstrong Francis Rees Hayes Hart Hudson Newman Barrett
  Webster Hunter Gregory Carr Lowe Page Marsh Riley Dunn Woods Parsons Berry Stone Reid Holland
  Hawkins Harding Porter Robertson Newton Oliver Reed Kennedy Williamson Bird Gardner Shah Dean Lane
  Cooke Bates Henderson Parry Burgess Bishop Walton Burns Nicholson Shepherd Ross Cross Long Freeman
  Warren Nicholls Hamilton Byrne Sutton McDonald Yates Hodgson Robson Curtis Hopkins O'Connor Harper
  Coleman Watkins Moss McCarthy Chambers O'Neill Griffin Sharp Hardy Okafor Adeyemi Nowak Kowalski
  Chen Wong Mistry Chaudhry Whitfield Ashworth Pemberton Fairbairn Thornton MacLeod Fraser Llewellyn
  Prosser Quigley Devlin Ogunleye
`);

const FIRM_NAMES = names(`
  Hartwell Ashdown Brightwater Kingsley Thistle Meridian Oakridge Fairfax Greystoke Albion Pennine
  Cotswold Chiltern Mercia Wessex Northgate Harbour Bridgewater Redwood Highfield Castleton Wychwood
  Lansdowne Belgrave Sterndale Carrick Tamar Severn Avonside Moorfield Elmstead Broadmead Ridgeway
  Stanhope Wharton Hollins Birchall Kirkwood Glenmore Strathmore Ambleside Keswick Harrogate Beaumont
  Montague Ellesmere Rowntree Lockwood Marlow Henley Richmond Kew Saltire Dunmore Caledonia Pembroke
  Tenby Brecon Conwy Ludlow
`);

/** A firm's kind, and the word its web address uses. */
const FIRM_KINDS: [string, string][] = [
  ['Wealth Management', 'wealth'],
  ['Financial Planning', 'fp'],
  ['Private Wealth', 'privatewealth'],
  ['Chartered Financial Planners', 'planners'],
  ['IFA', 'ifa'],
  ['Capital Partners', 'capital'],
  ['Asset Management', 'am'],
  ['Accountants', 'accountants'],
  ['& Co LLP', 'llp'],
  ['Family Office', 'familyoffice'],
  ['Advisory', 'advisory'],
  ['Investment Management', 'investments'],
  ['Financial Services', 'fs'],
  ['Pensions', 'pensions'],
  ['Training Academy', 'academy'],
];

const PERSONAL_DOMAINS = names(`
  gmail.com outlook.com hotmail.co.uk btinternet.com yahoo.co.uk icloud.com sky.com live.co.uk
  virginmedia.com protonmail.com
`);

const ROLES = [
  'Financial Adviser',
  'Independent Financial Adviser',
  'Chartered Financial Planner',
  'Paraplanner',
  'Wealth Manager',
  'Investment Manager',
  'Managing Director',
  'Director',
  'Partner',
  'Practice Manager',
  'Head of Learning and Development',
  'CPD Coordinator',
  'Compliance Officer',
  'Chief Investment Officer',
  'Operations Director',
  'Chartered Accountant',
  'Tax Adviser',
  'Business Development Manager',
  'Client Services Manager',
  'Head of Research',
];

const OPENINGS = [
  'Hello,',
  'Hi there,',
  'Good morning,',
  'Dear Sterling Sats team,',
  'Hi Elliot,',
  'Afternoon,',
  'Hello, I found you through a colleague.',
  'Hi, I saw your talk at a CPD event last month.',
  'Hello, a client recommended your guide to me.',
  'Good afternoon,',
];

/** Per subject, in CONTACT_SUBJECTS order ({n}: a number of people). */
const BODIES: Record<string, string[]> = {
  training: [
    'We are looking for Bitcoin training for {n} advisers in our practice, ideally before the end of the quarter.',
    'Could you run a half-day session on Bitcoin custody and regulation for our team of {n}?',
    'Our advisers keep getting questions from clients about Bitcoin and we would like some structured training for about {n} people.',
    'We would like a workshop for {n} paraplanners covering the basics, the risks and how to talk to clients about it.',
    'Do you offer accredited CPD hours? We have {n} advisers who need them this year.',
    'I manage learning and development for a network of {n} firms and want to understand your team training options.',
  ],
  consulting: [
    'We are considering whether to offer Bitcoin exposure to some clients and would value an independent view.',
    'Our investment committee wants to understand the custody options before we take a position on Bitcoin.',
    'I would like to discuss a consulting engagement to help us write a digital assets policy for {n} advisers.',
    'We need help assessing the FCA position on cryptoasset promotions for our client communications.',
    'A few high net worth clients are asking about Bitcoin in their pensions and we would like guidance.',
    'Could we book some consulting time to review how we document suitability for Bitcoin holdings?',
  ],
  speaking: [
    'We are organising a conference for about {n} advisers in the spring and would love you to speak.',
    'Would you be available to give a keynote at our regional adviser day?',
    'Our local institute branch runs evening talks for around {n} members and Bitcoin is the most requested topic.',
    'We host a quarterly client seminar and wondered whether you could present on Bitcoin for wealth preservation.',
    'Could you join a panel on digital assets at our annual partner meeting?',
    'We are planning a webinar series for {n} practitioners and would like a session from you.',
  ],
  partnership: [
    'We run a CPD platform used by {n} firms and think your material would suit our members.',
    'I lead an IFA network and would like to talk about a partnership for our member firms.',
    'We are a custody provider and would be interested in exploring a referral partnership.',
    'Our firm produces training for accountants and we would like to co-author a Bitcoin module.',
    'Would you consider a content partnership with our adviser newsletter, which reaches {n} readers?',
    'We are building a client education portal and would like to license your guide.',
  ],
  other: [
    'I downloaded the Wealth Building Guide and have a question about the section on self-custody.',
    'Could you send me details of your fees for an individual session?',
    'I am writing a dissertation on Bitcoin adoption among UK advisers and would welcome a short interview.',
    'Is the strategy session suitable for someone who is completely new to Bitcoin?',
    'I tried to book a session but could not find a date that suits, do you have evening slots?',
    'Please could you tell me whether your training covers inheritance planning for Bitcoin?',
  ],
};

const CLOSINGS = [
  'Thanks in advance.',
  'Many thanks.',
  'Kind regards.',
  'Best wishes.',
  'Looking forward to hearing from you.',
  'I am free most afternoons if a call is easier.',
  'Please call me on my mobile if that is quicker.',
  'Thank you.',
  'Cheers.',
  'Regards.',
];

const NOTES = [
  'Happy to do either date, mornings are best.',
  'I would like to bring a colleague if possible.',
  'We are a team of five advisers.',
  'Please send a calendar invite to my work address.',
  'New to Bitcoin, so the basics would help.',
  'I have a client meeting that afternoon, so the first choice is better.',
  'Could we cover custody and inheritance planning?',
  'Mainly interested in how to talk to clients about it.',
  'We may want to follow up with team training.',
  'Zoom link to this address please.',
];

const SPAM_MESSAGES = [
  'We can get your website to the first page of Google in 30 days. Reply for a free audit.',
  'I noticed your site is missing some important keywords. Our SEO packages start at 99 dollars a month.',
  'Earn 5 BTC a week with our automated trading bot, guaranteed returns, contact us on WhatsApp.',
  'Hi, we offer high quality backlinks from authority sites at wholesale prices.',
  'Your website could be converting more visitors. Book a free call with our growth experts.',
  'Congratulations, you have been selected for an exclusive investment opportunity.',
  'We build mobile apps for any budget. Reply to this message for a quote.',
  'Looking for a virtual assistant? Our team works 24/7 at very low rates.',
];

const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
];

const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

/** The letters of a name as an address uses them: "O'Brien" -> "obrien". */
const addressPart = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
const textArray = (values: readonly string[]) => `array[${values.map(literal).join(', ')}]::text[]`;

/**
 * Surnames the search finds among the seeded rows, most common first, and e-mail fragments.
 * Every one of them matches some rows (the bench checks that a search page is not empty).
 */
export const SEARCH_TERMS = [
  'smith',
  'patel',
  'whitfield',
  "o'brien",
  'okafor',
  'hartwell',
  'j.tay',
  'btinternet',
];

/** The tables the seed writes, in the order it writes them. */
const TABLES = [
  'submissions',
  'consent_records',
  'bookings',
  'booking_status_events',
  'outbox',
  'events',
  'event_registrations',
];

/**
 * One chunk of submissions, rows `from`..`to` of the series. `h(k)` is a 64-bit hash of the
 * row's number under salt k: each field draws from its own salt, so fields vary independently.
 */
export function submissionsChunk(from: number, to: number, count: number, now: Date): string {
  const contactSubjects = CONTACT_SUBJECTS.map((s) => s.value);
  const bodies = contactSubjects.flatMap((s) => BODIES[s] ?? []);
  const perSubject = (BODIES[contactSubjects[0]!] ?? []).length;
  if (contactSubjects.some((s) => (BODIES[s] ?? []).length !== perSubject)) {
    throw new Error('every contact subject needs the same number of seed messages');
  }
  // The sign bit cleared: a non-negative 63-bit number.
  const h = (k: number) => `(hashint4extended(i, ${k}) & 9223372036854775807)`;
  // Each list is an array constant in the statement, folded once when it is planned.
  const words: Record<string, readonly string[]> = {
    first_names: FIRST_NAMES,
    first_keys: FIRST_NAMES.map(addressPart),
    last_names: LAST_NAMES,
    last_keys: LAST_NAMES.map(addressPart),
    firms: FIRM_NAMES,
    firm_keys: FIRM_NAMES.map(addressPart),
    firm_kinds: FIRM_KINDS.map(([kind]) => kind),
    firm_kind_keys: FIRM_KINDS.map(([, key]) => key),
    personal_domains: PERSONAL_DOMAINS,
    roles: ROLES,
    openings: OPENINGS,
    bodies,
    closings: CLOSINGS,
    notes: NOTES,
    spam_messages: SPAM_MESSAGES,
    user_agents: USER_AGENTS,
    subjects: contactSubjects,
    session_types: SESSION_TYPES,
    session_times: SESSION_TIMES,
  };
  const list = (name: string) => words[name]!;
  const at = (name: string, index: string) => `(${textArray(list(name))})[${index}]`;
  const pick = (name: string, k: number) => at(name, `1 + ${h(k)} % ${list(name).length}`);
  // Rows arrive in time order, as they do on a real site, so the table's pages hold them in
  // that order too: the delivered ones (1..delivered) over SPAN_DAYS, then the spam over the
  // last SPAM_DAYS. Each row's time is drawn inside its own slot, so the order holds.
  const spamCount = Math.max(1, Math.round((count * SPAM_PER_THOUSAND) / 1000));
  const delivered = count - spamCount;
  const slot = (SPAN_DAYS * 86_400) / delivered;
  const spamSlot = (SPAM_DAYS * 86_400) / spamCount;
  const shares = FORM_SHARES;
  const m = shares.masterclass;
  const masterclassFrom = Math.floor(delivered * (1 - MASTERCLASS_DAYS / SPAN_DAYS));
  const ukDate = `(received_at at time zone 'Europe/London')::date`;
  // `day`, or the Monday after it if it falls on a weekend (2000-01-03 was a Monday).
  const weekday = (day: string) =>
    `(${day} + case (${day} - date '2000-01-03') % 7 when 5 then 2 when 6 then 1 else 0 end)`;
  return `
with drawn as (
  select i,
    case
      -- Within the last MASTERCLASS_DAYS only; older rows of that share are guide downloads.
      when ${h(1)} % 1000 < ${m} and i > ${masterclassFrom} then 'masterclass'
      when ${h(1)} % 1000 < ${m + shares.bitcoin_guide} then 'bitcoin_guide'
      when ${h(1)} % 1000 < ${m + shares.bitcoin_guide + shares.contact} then 'contact'
      when ${h(1)} % 1000 < ${m + shares.bitcoin_guide + shares.contact + shares.newsletter} then 'newsletter'
      else 'booking'
    end as form_type,
    i > ${delivered} as spam,
    1 + ${h(3)} % ${list('first_names').length} as fi,
    -- Skewed towards the start of the list: P(first of ${LAST_NAMES.length}) ~ 1.6%.
    1 + floor(${list('last_names').length} * power((${h(4)} % 1000000)::float8 / 1000000, 1.25))::int as li,
    1 + ${h(5)} % ${list('firms').length} as ci,
    1 + ${h(6)} % ${list('firm_kinds').length} as ki,
    ${h(7)} % 100 as address_style,
    ${h(8)} % 100 as personal,
    ${h(9)} % 90 + 10 as digits,
    1 + ${h(10)} % ${list('subjects').length} as si
  from generate_series(${from}, ${to}) as i
),
timed as (
  select *,
    timestamptz ${literal(now.toISOString())} - make_interval(secs =>
      case when i > ${delivered} then (${count} - i + (${h(11)} % 1000000)::float8 / 1000000) * ${spamSlot}
           else (${delivered} - i + (${h(11)} % 1000000)::float8 / 1000000) * ${slot} end
    ) as received_at,
    ${at('first_names', 'fi')} as first_name,
    ${at('last_names', 'li')} as last_name,
    ${at('firms', 'ci')} || ' ' || ${at('firm_kinds', 'ki')} as company,
    case
      when personal < 45 then
        case address_style % 3
          when 0 then ${at('first_keys', 'fi')} || '.' || ${at('last_keys', 'li')} || digits
          when 1 then ${at('first_keys', 'fi')} || ${at('last_keys', 'li')} || digits
          else left(${at('first_keys', 'fi')}, 1) || ${at('last_keys', 'li')} || digits
        end || '@' || ${pick('personal_domains', 12)}
      else
        case address_style % 4
          when 0 then ${at('first_keys', 'fi')} || '.' || ${at('last_keys', 'li')}
          when 1 then left(${at('first_keys', 'fi')}, 1) || '.' || ${at('last_keys', 'li')}
          when 2 then ${at('first_keys', 'fi')}
          else left(${at('first_keys', 'fi')}, 1) || ${at('last_keys', 'li')}
        end || '@' || ${at('firm_keys', 'ci')} || ${at('firm_kind_keys', 'ki')} || '.co.uk'
    end as email
  from drawn
),
built as (
  select *,
    ${weekday(`(${ukDate} + 2 + (${h(13)} % 40)::int)`)} as first_choice,
    ${h(14)} % 100 < 60 as has_second
  from timed
)
insert into submissions (id, form_type, fields, received_at, user_agent, ip_hash, spam, spam_reason,
                         idempotency_key, response, request_hash, lead_state)
select
  gen_random_uuid(),
  form_type,
  case form_type
    when 'contact' then jsonb_build_object(
      'firstName', first_name, 'lastName', last_name, 'email', email, 'company', company,
      'subject', ${at('subjects', 'si')},
      'message', case when spam then ${pick('spam_messages', 15)} else
        ${pick('openings', 16)} || E'\\n\\n' ||
        replace(${at('bodies', `(si - 1) * ${perSubject} + 1 + ${h(17)} % ${perSubject}`)} ||
          case when ${h(19)} % 3 = 0 then ' ' || ${pick('bodies', 20)} else '' end,
          '{n}', (3 + ${h(18)} % 40)::text) ||
        E'\\n\\n' || ${pick('closings', 21)} || E'\\n' || first_name end,
      'consent', true, 'consentVersion', ${literal(consents.contact.id)})
    when 'bitcoin_guide' then jsonb_build_object(
      -- The guide form has one name field, sent as firstName: most people type their full name.
      'firstName', case when ${h(22)} % 10 < 7 then first_name || ' ' || last_name else first_name end,
      'email', email,
      'company', case ${h(23)} % 3 when 0 then company when 1 then ${pick('roles', 24)}
                 else ${pick('roles', 24)} || ', ' || company end,
      'consent', true, 'consentVersion', ${literal(consents.guide.id)})
    when 'newsletter' then jsonb_build_object('firstName', first_name, 'lastName', last_name, 'email', email)
    when 'masterclass' then jsonb_build_object(
      -- One event a month (30-day periods of the epoch), named by a stable id.
      'eventId', md5('seed-event-' || floor(extract(epoch from received_at) / 2592000)::text)::uuid::text,
      'firstName', case when ${h(22)} % 10 < 7 then first_name || ' ' || last_name else first_name end,
      'email', email,
      'company', case ${h(23)} % 2 when 0 then ${pick('roles', 24)} else company end,
      'consent', true, 'consentVersion', ${literal(consents.masterclass.id)})
    else jsonb_build_object(
      'sessionType', ${pick('session_types', 25)},
      'firstChoiceDate', to_char(first_choice, 'YYYY-MM-DD'),
      'firstChoiceTime', ${pick('session_times', 26)},
      'secondChoiceDate', case when has_second
        then to_char(${weekday(`(first_choice + 1 + (${h(27)} % 6)::int)`)}, 'YYYY-MM-DD') else '' end,
      'secondChoiceTime', case when has_second then ${pick('session_times', 28)} else '' end,
      'firstName', first_name, 'lastName', last_name, 'email', email,
      'phone', case ${h(29)} % 3
        when 0 then '07700 900' || lpad((${h(30)} % 1000)::text, 3, '0')
        when 1 then '+44 7700 900' || lpad((${h(30)} % 1000)::text, 3, '0')
        else '020 7946 0' || lpad((${h(30)} % 1000)::text, 3, '0') end,
      'company', company,
      'role', ${pick('roles', 24)},
      'notes', case when ${h(31)} % 100 < 45 then ${pick('notes', 32)} else '' end)
  end,
  received_at,
  ${pick('user_agents', 33)},
  -- Cleared by the hourly sweep once a day old.
  case when received_at > timestamptz ${literal(now.toISOString())} - interval '1 day'
    then rtrim(translate(encode(sha256(convert_to('ip:' || (${h(34)} % 50000), 'UTF8')), 'base64'), '+/', '-_'), '=') end,
  spam,
  case when spam then case when ${h(35)} % 4 = 0 then 'too-fast' else 'honeypot' end end,
  -- A booking request carries an Idempotency-Key; a trapped one is stored without it.
  case when form_type = 'booking' and not spam then gen_random_uuid()::text end,
  case when form_type = 'booking' and not spam then jsonb_build_object('reference', 'BK-' ||
    ${Array.from({ length: 6 }, (_, d) => `substr(${literal(REFERENCE_ALPHABET)}, 1 + ((i::bigint * 7919 + 104729) / ${31 ** d} % 31)::int, 1)`).join(' || ')}) end,
  case when form_type = 'booking' and not spam then encode(sha256(convert_to(i::text, 'UTF8')), 'hex') end,
  -- Only a message and a session request are leads (decision 054).
  case when form_type in ('contact', 'booking') then 'new' end
from built`;
}

/** The statements after the submissions: consents, bookings, e-mails (set-based, one each). */
function followingStatements(now: Date, ownerEmail: string, hasBodyRemoved: boolean): [string, string][] {
  const at = `timestamptz ${literal(now.toISOString())}`;
  const removedAfter = `${at} - interval '30 days'`;
  const stub = literal(JSON.stringify({ subject: '', content: { preheader: '', heading: '', blocks: [] } }));
  const kinds = `case s.form_type when 'contact' then 'contact.owner' when 'bitcoin_guide' then 'guide.owner'
                 when 'newsletter' then 'newsletter.owner' when 'masterclass' then 'event.owner' else 'booking.owner' end`;
  const visitorKinds = `case s.form_type when 'bitcoin_guide' then 'guide.visitor'
                        when 'newsletter' then 'newsletter.confirm' when 'masterclass' then 'event.registered'
                        else 'booking.applicant' end`;
  const name = `trim(coalesce(s.fields->>'firstName', '') || ' ' || coalesce(s.fields->>'lastName', ''))`;
  const ownerMessage = `jsonb_build_object(
      'subject', 'New ' || replace(s.form_type, '_', ' ') || ' from ' || ${name},
      'replyTo', s.fields->>'email',
      'content', jsonb_build_object(
        'preheader', ${name} || ' sent the ' || replace(s.form_type, '_', ' ') || ' form',
        'heading', 'New ' || replace(s.form_type, '_', ' '),
        'blocks', jsonb_build_array(jsonb_build_object('type', 'fields', 'rows', jsonb_build_array(
          jsonb_build_array('Name', ${name}), jsonb_build_array('E-mail', s.fields->>'email'))))))`;
  const visitorMessage = `jsonb_build_object(
      'subject', case s.form_type when 'bitcoin_guide' then 'Your Wealth Building Guide'
                 when 'newsletter' then 'Please confirm your subscription'
                 when 'masterclass' then 'You''re registered: Bitcoin for High Earners'
                 else 'We have your booking request' end,
      'content', jsonb_build_object('preheader', '', 'heading', 'Thank you, ' || (s.fields->>'firstName'),
        'blocks', jsonb_build_array()))`;
  const outbox = (
    audience: 'owner' | 'visitor',
    kind: string,
    to: string,
    message: string,
    where: string,
  ) => `
    insert into outbox (submission_id, kind, to_address, audience, message, status, attempts, next_attempt_at,
                        last_attempt_at, created_at, sent_at${hasBodyRemoved ? ', body_removed_at' : ''})
    select s.id, ${kind}, ${to}, '${audience}',
      case when s.received_at < ${removedAfter} then ${stub}::jsonb else ${message} end,
      'sent', 1, s.received_at, s.received_at + interval '2 seconds', s.received_at,
      s.received_at + interval '2 seconds'
      ${hasBodyRemoved ? `, case when s.received_at < ${removedAfter} then s.received_at + interval '31 days' end` : ''}
    from submissions s where not s.spam${where}`;
  return [
    [
      'consent records',
      `insert into consent_records (submission_id, consent_id, wording, given_at)
       select id, fields->>'consentVersion',
         case form_type when 'contact' then ${literal(consents.contact.text)}
           when 'masterclass' then ${literal(consents.masterclass.text)} else ${literal(consents.guide.text)} end,
         received_at
       from submissions where not spam and form_type in ('contact', 'bitcoin_guide', 'masterclass')`,
    ],
    [
      'masterclasses',
      // Each month's event starts three days after its last registration, at 19:00 UK time.
      `insert into events (id, slug, title, summary, starts_at, ends_at, mode, join_url, capacity, status,
                           published_at, created_at, updated_at)
       select (fields->>'eventId')::uuid,
         'bitcoin-for-high-earners-' || left(fields->>'eventId', 8),
         'Bitcoin for High Earners: ' || trim(to_char(max(received_at), 'FMMonth YYYY')),
         'A live session on allocation sizing, UK tax and secure custody, followed by an open Q&A.',
         starts, starts + interval '90 minutes', 'online',
         'https://meet.example.net/j/' || left(md5(fields->>'eventId'), 12), ${MASTERCLASS_CAPACITY}, 'published',
         min(received_at) - interval '7 days', min(received_at) - interval '7 days', max(received_at)
       from (select *, ((max(received_at) over (partition by fields->>'eventId') at time zone 'Europe/London')::date
                        + 3 + time '19:00') at time zone 'Europe/London' as starts
             from submissions where form_type = 'masterclass') s
       group by fields->>'eventId', starts`,
    ],
    [
      'masterclass registrations',
      `insert into event_registrations (id, event_id, submission_id, person_key, status, created_at)
       select gen_random_uuid(), (fields->>'eventId')::uuid, id, md5(id::text),
         case when row_number() over (partition by fields->>'eventId' order by received_at, id) <= ${MASTERCLASS_CAPACITY}
           then 'registered' else 'waitlisted' end,
         received_at
       from submissions where form_type = 'masterclass' and not spam`,
    ],
    [
      'bookings',
      // Past first choices were answered (mostly confirmed); future ones mostly wait for an answer.
      `insert into bookings (id, submission_id, reference, status, session_type, first_choice_date, first_choice_time,
                             second_choice_date, second_choice_time, confirmed_choice, session_date, session_start,
                             session_end, calendar_sequence, created_at, updated_at)
       select gen_random_uuid(), id, response->>'reference', status, fields->>'sessionType',
         (fields->>'firstChoiceDate')::date, fields->>'firstChoiceTime',
         nullif(fields->>'secondChoiceDate', '')::date, nullif(fields->>'secondChoiceTime', ''),
         case when status = 'confirmed' then 1 end,
         case when status = 'confirmed' then (fields->>'firstChoiceDate')::date end,
         case when status = 'confirmed' then case fields->>'firstChoiceTime' when 'morning' then '10:00' else '14:00' end end,
         case when status = 'confirmed' then case fields->>'firstChoiceTime' when 'morning' then '10:45' else '14:45' end end,
         case when status = 'confirmed' then 1 else 0 end,
         received_at, received_at + interval '1 day'
       from (
         select *, case
           when (fields->>'firstChoiceDate')::date >= (${at} at time zone 'Europe/London')::date
             then case when (hashtext(id::text) & 2147483647) % 10 < 7 then 'requested' else 'confirmed' end
           else case (hashtext(id::text) & 2147483647) % 10 when 0 then 'declined' when 1 then 'cancelled' else 'confirmed' end
         end as status
         from submissions where form_type = 'booking' and not spam
       ) s`,
    ],
    [
      'booking history',
      `insert into booking_status_events (booking_id, status, at, actor)
       select b.id, 'requested', b.created_at, 'applicant' from bookings b
       union all
       select b.id, b.status, b.updated_at,
         case b.status when 'cancelled' then 'applicant' else 'owner' end
       from bookings b where b.status <> 'requested'`,
    ],
    ['owner e-mails', outbox('owner', kinds, literal(ownerEmail), ownerMessage, '')],
    [
      'visitor e-mails',
      outbox('visitor', visitorKinds, `s.fields->>'email'`, visitorMessage, ` and s.form_type <> 'contact'`),
    ],
  ];
}

type IndexDef = { name: string; def: string };

/** The tables' indexes that no constraint owns (those stay), as the migrations created them. */
async function droppableIndexes(query: Query): Promise<IndexDef[]> {
  const { rows } = await query(`
    select quote_ident(c.relname) as name, pg_get_indexdef(i.indexrelid) as def
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_class t on t.oid = i.indrelid
    where t.relnamespace = 'public'::regnamespace
      and t.relname in (${TABLES.map(literal).join(', ')})
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
    order by c.relname`);
  return rows as IndexDef[];
}

async function timed<T>(log: (line: string) => void, what: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  log(`  ${what}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
  return result;
}

/**
 * Seeds `count` submissions and what hangs off them into a migrated, empty database. The
 * session's foreign-key triggers are off while it writes (every reference is made from the rows
 * just written) and back on before it returns.
 */
export async function seedConsole(query: Query, options: SeedOptions): Promise<{ seconds: number }> {
  const {
    count,
    now = new Date(),
    chunk = 100_000,
    ownerEmail = 'owner@example.com',
    log = () => {},
    autovacuum = true,
  } = options;
  const started = performance.now();
  const { rows: existing } = await query('select count(*)::int as n from submissions');
  if (Number(existing[0]?.n) !== 0) throw new Error('the console seed expects an empty submissions table');
  const { rows: columns } = await query(
    `select 1 from information_schema.columns where table_name = 'outbox' and column_name = 'body_removed_at'`,
  );
  const indexes = await droppableIndexes(query);
  await query(`set maintenance_work_mem = '128MB'`);
  await query(`set session_replication_role = replica`);
  try {
    for (const index of indexes) await query(`drop index ${index.name}`);
    await timed(log, `${count.toLocaleString('en-GB')} submissions`, async () => {
      for (let from = 1; from <= count; from += chunk) {
        await query(submissionsChunk(from, Math.min(count, from + chunk - 1), count, now));
      }
    });
    for (const [what, statement] of followingStatements(now, ownerEmail, columns.length > 0)) {
      await timed(log, what, () => query(statement));
    }
    await timed(log, `${indexes.length} indexes`, async () => {
      for (const index of indexes) await query(index.def);
    });
  } finally {
    await query(`set session_replication_role = origin`);
  }
  if (autovacuum) await timed(log, 'vacuum analyze', () => query(`vacuum (analyze) ${TABLES.join(', ')}`));
  return { seconds: (performance.now() - started) / 1000 };
}

/** The command line: seeds one database, a DATA_DIR's embedded cluster or Postgres. */
async function main(argv: string[]): Promise<void> {
  const option = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const dataDir = option('data-dir');
  const databaseUrl = option('database-url');
  if (!dataDir === !databaseUrl) {
    console.error('Usage: console-seed.ts (--data-dir DIR | --database-url URL) [--count N] [--now ISO]');
    process.exit(2);
  }
  const options: SeedOptions = {
    count: Number(option('count') ?? 10_000),
    now: option('now') ? new Date(option('now')!) : new Date(),
    ownerEmail: option('owner') ?? 'owner@example.com',
    log: (line) => console.log(line),
    autovacuum: true,
  };
  const { default: pg } = await import('pg');
  const embedded = dataDir ? await startEmbeddedPostgres(dataDir) : undefined;
  let result: { seconds: number };
  try {
    const client = new pg.Client(embedded ? embedded.connection() : { connectionString: databaseUrl });
    await client.connect();
    try {
      result = await seedConsole((text) => client.query(text), options);
    } finally {
      await client.end();
    }
  } finally {
    await embedded?.stop();
  }
  console.log(JSON.stringify(result));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
