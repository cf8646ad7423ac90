/**
 * The words of the Wealth Building Guide, one entry per page. Figures are the UK's 2025/26
 * tax year; review them each April (the build stamps the edition on the cover).
 */
export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'h'; text: string }
  | { kind: 'bullets'; items: string[] }
  | { kind: 'callout'; title: string; text: string }
  | { kind: 'table'; columns: string[]; rows: string[][]; widths?: number[] };

export type GuidePage = { eyebrow: string; title: string; blocks: Block[] };

export const GUIDE_EDITION = 'Edition 2025/26';

export const NOTICE =
  'This guide is education, not financial advice. It does not take your circumstances into account and is not a recommendation to buy, sell or hold any investment. Sterling Sats is not authorised by the Financial Conduct Authority to give regulated advice. Bitcoin is highly volatile, is not protected by the Financial Services Compensation Scheme or the Financial Ombudsman Service, and you could lose all the money you put in. Tax rules change and depend on your situation: check GOV.UK or speak to a qualified adviser before acting.';

export const CONTENTS: [string, string][] = [
  ['1', 'The £100k reality check'],
  ['2', 'Budgeting and saving with purpose'],
  ['3', 'Pensions and ISAs first'],
  ['4', 'What Bitcoin is, and its risks'],
  ['5', 'Thinking about a 1-5 % allocation'],
  ['6', 'Custody and security'],
  ['7', 'UK tax basics'],
  ['8', 'Your checklist and next steps'],
];

export const PAGES: GuidePage[] = [
  {
    eyebrow: 'Chapter 1',
    title: 'The £100k reality check',
    blocks: [
      {
        kind: 'p',
        text: 'A £100,000 salary puts you in the top few per cent of UK earners, yet many people on it feel no richer than they did on half that. The reason is rarely the salary. It is the gap between what arrives in your account and what leaves it, and the way lifestyle quietly grows to fill, and then exceed, every pay rise.',
      },
      { kind: 'h', text: 'What £100,000 really pays' },
      {
        kind: 'table',
        columns: ['2025/26, England, no pension contributions', 'Per year', 'Per month'],
        rows: [
          ['Gross salary', '£100,000', '£8,333'],
          ['Income tax (20 % and 40 % bands)', '£27,432', '£2,286'],
          ['National Insurance (8 % and 2 %)', '£4,011', '£334'],
          ['Take-home pay', '£68,557', '£5,713'],
        ],
        widths: [0.56, 0.22, 0.22],
      },
      {
        kind: 'p',
        text: 'Now picture the household that "earns £100k and spends £105k": a mortgage sized to the maximum a lender would offer, two car finance agreements, private school fees, holidays on a credit card and subscriptions nobody reviews. The spending is measured against the gross figure on the payslip, not the £68,557 that actually arrives, and the shortfall is carried on credit. Every month it continues, net worth goes backwards while the salary looks impressive.',
      },
      {
        kind: 'callout',
        title: 'The 60 % band',
        text: 'Between £100,000 and £125,140 of adjusted net income, your £12,570 personal allowance is withdrawn at £1 for every £2 you earn. Together with 40 % income tax, each extra £1 in that band costs about 60p in tax (62p with National Insurance). Pension contributions reduce adjusted net income, so they can restore the allowance: often the most valuable money a professional on this salary can save.',
      },
      {
        kind: 'p',
        text: 'The first step towards building wealth is therefore not an investment at all. It is knowing, to the pound, what you take home, what you spend and what is left. Without that, no allocation to anything, Bitcoin included, will make you wealthier.',
      },
    ],
  },
  {
    eyebrow: 'Chapter 2',
    title: 'Budgeting and saving with purpose',
    blocks: [
      {
        kind: 'p',
        text: 'A budget is not a punishment; it is a decision about what your money is for, made once rather than every time you tap a card. Professionals with demanding jobs rarely have time for spreadsheets every week, so build a system that runs by itself.',
      },
      { kind: 'h', text: 'A simple system that runs itself' },
      {
        kind: 'bullets',
        items: [
          'Pay yourself first: on payday, standing orders move savings and investments out before any spending happens.',
          'Split take-home pay roughly into needs (50 %), wants (30 %) and future you (20 %), then push the last share higher with every pay rise.',
          'Give fixed costs a yearly review: mortgage rate, insurance, energy, phone and subscriptions. An hour a year often saves thousands.',
          'Keep one current account for bills and another for everyday spending, so the balance you see is the balance you may spend.',
        ],
      },
      { kind: 'h', text: 'In this order' },
      {
        kind: 'table',
        columns: ['Step', 'Why it comes first'],
        rows: [
          [
            '1. Clear expensive debt',
            'A credit card at 24 % APR costs more than almost any investment can reliably earn.',
          ],
          [
            '2. Emergency fund',
            'Three to six months of essential spending in an easy-access account, so a shock never forces you to sell investments.',
          ],
          [
            '3. Employer pension match',
            'Free money: contribute at least enough to receive every pound your employer offers.',
          ],
          [
            '4. Short-term goals',
            'Money needed within five years (a deposit, school fees) belongs in cash or very low-risk holdings.',
          ],
          [
            '5. Long-term investing',
            'Only money you will not need for many years should be exposed to volatile assets.',
          ],
        ],
        widths: [0.3, 0.7],
      },
      {
        kind: 'callout',
        title: 'Lifestyle creep',
        text: 'When your pay rises, decide in advance how much of the increase you will keep: for example, half to savings and investments, half to living better. Writing the rule down before the rise arrives is what makes it stick.',
      },
    ],
  },
  {
    eyebrow: 'Chapter 3',
    title: 'Pensions and ISAs first',
    blocks: [
      {
        kind: 'p',
        text: 'The UK gives generous tax advantages to two wrappers: pensions and ISAs. For a higher earner, using them fully usually does more for long-term wealth than any choice of individual investment.',
      },
      { kind: 'h', text: 'Pensions' },
      {
        kind: 'bullets',
        items: [
          'Contributions receive tax relief at your marginal rate: a £10,000 contribution costs a 40 % taxpayer £6,000, and in the 60 % band as little as £4,000.',
          'Salary sacrifice also saves National Insurance, for you and often for your employer.',
          'The annual allowance is £60,000 (or your earnings, if lower), tapered down to a minimum of £10,000 for adjusted income above £260,000. Unused allowance can be carried forward from the previous three tax years.',
          'The money is locked away until your minimum pension age (55, rising to 57 from April 2028); up to 25 % can usually be taken tax-free, within the lump sum allowance.',
        ],
      },
      { kind: 'h', text: 'ISAs' },
      {
        kind: 'bullets',
        items: [
          'You can put up to £20,000 a year into ISAs. Growth and income inside them are free of UK income tax and capital gains tax, and withdrawals are tax-free.',
          'A Stocks and Shares ISA suits long-term investing; a Cash ISA suits your emergency fund and short-term goals.',
          'A Lifetime ISA (under 40s) adds a 25 % government bonus on up to £4,000 a year towards a first home or retirement, with a charge for other withdrawals.',
        ],
      },
      {
        kind: 'callout',
        title: 'Why this comes before Bitcoin',
        text: 'A pension contribution in the 60 % band earns an immediate, certain return through tax relief. No volatile asset offers anything certain. Put these foundations in place first; any Bitcoin allocation is a decision for money left over afterwards.',
      },
    ],
  },
  {
    eyebrow: 'Chapter 4',
    title: 'What Bitcoin is, and its risks',
    blocks: [
      {
        kind: 'p',
        text: 'Bitcoin is a digital asset and a payment network that has run since January 2009 without a company, a bank or a government in charge. Thousands of independent computers keep identical copies of a public ledger of every transaction, and new transactions are confirmed in blocks roughly every ten minutes.',
      },
      { kind: 'h', text: 'The properties people value' },
      {
        kind: 'bullets',
        items: [
          'Fixed supply: there will never be more than 21 million bitcoin, and the rate of new issuance halves roughly every four years.',
          'No central issuer: no single party can create more, freeze the network or change the rules on its own.',
          'Portable and divisible: any amount, down to one hundred-millionth of a bitcoin (a satoshi), can be sent worldwide in minutes.',
          'Self-custody: whoever holds the private keys controls the coins, without needing a bank to hold them.',
        ],
      },
      { kind: 'h', text: 'The risks, plainly' },
      {
        kind: 'table',
        columns: ['Risk', 'What it means for you'],
        rows: [
          [
            'Volatility',
            'Falls of 50 % to 80 % from a peak have happened several times and can happen again.',
          ],
          [
            'No protection',
            'Not covered by the FSCS or the Financial Ombudsman Service. If a platform fails, you may lose everything held there.',
          ],
          [
            'Custody mistakes',
            'Lose your keys or recovery phrase and the coins are gone for good; nobody can reset a password.',
          ],
          [
            'Scams',
            'Fake platforms, "recovery" services and impersonators target new buyers. Promised returns are a warning sign.',
          ],
          [
            'Regulation and tax',
            'Rules in the UK and abroad are still changing and can affect access, reporting and tax.',
          ],
        ],
        widths: [0.26, 0.74],
      },
      {
        kind: 'callout',
        title: 'The one rule',
        text: 'Only ever put in money you could lose entirely without changing your plans for your home, your family or your retirement.',
      },
    ],
  },
  {
    eyebrow: 'Chapter 5',
    title: 'Thinking about a 1-5 % allocation',
    blocks: [
      {
        kind: 'p',
        text: 'Many professionals who decide to own some Bitcoin treat it as a small satellite to a diversified core: a position large enough to matter if it does well, and small enough not to derail anything if it falls by 80 %. A range of 1 % to 5 % of investable assets is a common way of framing that decision. It is a framework for thinking, not a recommendation.',
      },
      { kind: 'h', text: 'What the range means in pounds' },
      {
        kind: 'table',
        columns: ['Investable assets', '1 %', '3 %', '5 %'],
        rows: [
          ['£50,000', '£500', '£1,500', '£2,500'],
          ['£150,000', '£1,500', '£4,500', '£7,500'],
          ['£400,000', '£4,000', '£12,000', '£20,000'],
        ],
        widths: [0.4, 0.2, 0.2, 0.2],
      },
      { kind: 'h', text: 'Stress-test it before you buy' },
      {
        kind: 'table',
        columns: ['A 5 % allocation of a £150,000 portfolio', 'Bitcoin value', 'Whole portfolio'],
        rows: [
          ['Bitcoin falls 80 %', '£1,500', '£144,000 (-4 %)'],
          ['Bitcoin unchanged', '£7,500', '£150,000'],
          ['Bitcoin doubles', '£15,000', '£157,500 (+5 %)'],
        ],
        widths: [0.5, 0.22, 0.28],
      },
      {
        kind: 'bullets',
        items: [
          'Buy gradually: a fixed amount each month (pound-cost averaging) spreads the risk of buying at a peak.',
          'Rebalance on a rule, for example once a year or whenever the position drifts above twice its target, so a rise does not quietly become a concentration.',
          'Write your plan down: your target, how you will buy, and what you will do after a 50 % fall. Decisions made in advance survive headlines.',
        ],
      },
    ],
  },
  {
    eyebrow: 'Chapter 6',
    title: 'Custody and security',
    blocks: [
      {
        kind: 'p',
        text: 'How you hold Bitcoin matters as much as whether you hold it. There are two broad approaches, and many people use both: a platform for buying, and their own wallet for keeping.',
      },
      {
        kind: 'table',
        columns: ['', 'On a platform (custodial)', 'Your own wallet (self-custody)'],
        rows: [
          ['Who holds the keys', 'The platform', 'You'],
          [
            'Main risk',
            'The platform fails, freezes withdrawals or is hacked',
            'You lose your recovery phrase, or it is stolen',
          ],
          ['Good for', 'Small amounts, regular buying', 'Larger amounts held for the long term'],
        ],
        widths: [0.24, 0.38, 0.38],
      },
      { kind: 'h', text: 'Habits that keep coins safe' },
      {
        kind: 'bullets',
        items: [
          'Use a platform registered with the FCA for cryptoasset activity, and check the register yourself rather than trusting a link.',
          'For self-custody, use a reputable hardware wallet bought directly from its maker, never second-hand.',
          'Write the 12 or 24-word recovery phrase on paper or steel, store it somewhere safe and private, and never type it into a website, an app or a message.',
          'Nobody genuine will ever ask for your recovery phrase: not support staff, not a "recovery service", not us.',
          'Send a small test amount before any large transfer, and check the whole address, not just its first and last characters.',
          'Plan for inheritance: leave clear instructions so your family can find and access what you hold, without writing the phrase into your will.',
        ],
      },
      {
        kind: 'callout',
        title: 'A warning sign',
        text: 'Pressure to act quickly, guaranteed returns, requests to move funds to a "safe" wallet or contact that began on social media: stop, and check the FCA warning list before doing anything.',
      },
    ],
  },
  {
    eyebrow: 'Chapter 7',
    title: 'UK tax basics',
    blocks: [
      {
        kind: 'p',
        text: 'HMRC treats Bitcoin held as a personal investment as a chargeable asset. Most people will deal with capital gains tax; income tax applies in some other situations.',
      },
      { kind: 'h', text: 'When capital gains tax can arise' },
      {
        kind: 'bullets',
        items: [
          'Selling bitcoin for pounds or any other currency.',
          'Swapping it for another cryptoasset.',
          'Using it to pay for goods or services.',
          'Giving it away, except to a spouse or civil partner.',
        ],
      },
      {
        kind: 'table',
        columns: ['2025/26', 'Figure'],
        rows: [
          ['Annual exempt amount', '£3,000 of gains a year'],
          ['Rate for basic-rate taxpayers', '18 %'],
          ['Rate for higher and additional-rate taxpayers', '24 %'],
          ['Losses', 'Can be offset against gains once reported to HMRC'],
        ],
        widths: [0.55, 0.45],
      },
      { kind: 'h', text: 'How gains are worked out' },
      {
        kind: 'p',
        text: 'Coins are pooled: your cost is the average price of everything you hold (the "section 104 pool"). Coins bought on the same day as a sale, or within the following 30 days, are matched first. Keep a record of every purchase, sale, swap and transfer with dates, amounts and values in pounds; exchanges may close or delete history.',
      },
      {
        kind: 'callout',
        title: 'Income tax, too',
        text: 'Bitcoin received as pay, or earned from mining, staking or lending, is usually taxed as income when received. Since 2025 UK platforms also report customer transactions to HMRC, so assume HMRC can see your activity and report it correctly.',
      },
    ],
  },
  {
    eyebrow: 'Chapter 8',
    title: 'Your checklist and next steps',
    blocks: [
      { kind: 'p', text: 'Work through the list in order. Each step makes the next one safer.' },
      {
        kind: 'bullets',
        items: [
          'I know my monthly take-home pay and my real monthly spending.',
          'I have no credit card or overdraft debt carried from month to month.',
          'I hold three to six months of essential spending in easy-access cash.',
          'I receive my full employer pension match, and I have checked whether I am in the 60 % band.',
          'I am using my ISA allowance for long-term saving.',
          'I understand Bitcoin can fall 80 % and I would not need to sell if it did.',
          'I have chosen an allocation (1-5 % of investable assets at most) and written down how I will buy and rebalance.',
          'I know how I will hold it, where my recovery phrase is kept, and how my family would find it.',
          'I keep records for capital gains tax from the first purchase.',
        ],
      },
      {
        kind: 'callout',
        title: 'Talk it through',
        text: 'Book a free 45-minute strategy session on our website (Book a Session): we will go through your foundations, your questions about Bitcoin and the practical steps that fit your situation. For regulated advice on your pension or investments, speak to an FCA-authorised financial adviser.',
      },
    ],
  },
];
