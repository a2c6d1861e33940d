import { faker } from '@faker-js/faker';

/**
 * The words of the demo data: what a field sales rep of a retail-technology
 * supplier writes in notes, tasks, call and visit summaries and text
 * messages. Every text is a template whose `{slots}` are filled from the
 * record it is about and from faker (names, companies, cities), so ten
 * thousand notes read like a rep's notes, in English, without repeating.
 */

/**
 * What a conversation is about. Every note and task names one: the search
 * benchmark (bench/run.mjs) looks for these words in tasks and notes.
 */
export const TOPICS = ['pricing', 'renewal', 'delivery dates', 'budget', 'competitor offer', 'training needs', 'contract terms'] as const;

export const INDUSTRIES = ['grocery', 'fashion retail', 'hardware stores', 'pharmacies', 'garden centres', 'convenience stores', 'sporting goods', 'bookshops'];
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The catalog the demo deals sell: name, SKU, list price in US dollars, and whether it is a service (sold in ones and twos). */
export const CATALOG: readonly { name: string; sku: string; usd: number; service?: boolean; description: string }[] = [
  { name: 'Rugged Tablet T10', sku: 'RT-10', usd: 899, description: '10-inch tablet for the shop floor, drop-tested to 1.5 m.' },
  { name: 'Handheld Barcode Scanner', sku: 'HBS-200', usd: 349, description: 'Cordless 2D scanner with a 30 m range and a charging cradle.' },
  { name: 'Thermal Label Printer', sku: 'TLP-4', usd: 529, description: '4-inch desktop printer for shelf and shipping labels.' },
  { name: 'Label Rolls (box of 12)', sku: 'LR-12', usd: 64.5, description: 'Direct thermal labels, 102 × 152 mm.' },
  { name: 'Mobile Card Reader', sku: 'MCR-3', usd: 129, description: 'Chip, contactless and swipe payments over Bluetooth.' },
  { name: 'Point-of-Sale Terminal', sku: 'POS-15', usd: 1450, description: '15-inch touch terminal with a customer display.' },
  { name: 'Receipt Printer', sku: 'RP-80', usd: 289, description: '80 mm thermal receipt printer, USB and Ethernet.' },
  { name: 'Cash Drawer', sku: 'CD-41', usd: 179, description: 'Steel cash drawer with five note and eight coin slots.' },
  { name: 'Wireless Access Point', sku: 'WAP-6', usd: 239, description: 'Wi-Fi 6 access point for stores and back offices.' },
  { name: 'Shelf Display Kit', sku: 'SDK-1', usd: 415, description: 'Electronic shelf labels for one aisle, with the base station.' },
  { name: 'Digital Signage Screen 43"', sku: 'DSS-43', usd: 1190, description: 'Commercial 43-inch screen with a media player and a wall mount.' },
  { name: 'Extended Warranty (3 years)', sku: 'EW-3', usd: 199, description: 'Next-business-day replacement for one device.' },
  { name: 'Inventory Software (per user, one year)', sku: 'SW-INV', usd: 360, service: true, description: 'Stock counts, reorders and transfers between stores.' },
  { name: 'Installation and Setup (per site)', sku: 'SVC-INST', usd: 650, service: true, description: 'On-site installation, network setup and a test run.' },
  { name: 'On-site Training (half day)', sku: 'SVC-TRN', usd: 480, service: true, description: 'Hands-on training for up to eight staff.' },
  { name: 'Annual Support Plan', sku: 'SVC-SUP', usd: 1200, service: true, description: 'Phone support, remote fixes and two site visits a year.' },
];

/** What a deal is for, after the customer's name: "Harbor Foods – POS upgrade". */
export const DEAL_SUBJECTS = [
  'POS upgrade', 'store rollout', 'scanner refresh', 'signage pilot', 'support plan renewal', 'new site fit-out',
  'label printers', 'Wi-Fi upgrade', 'inventory software', 'expansion', 'tablets for the floor staff', 'shelf labels pilot',
];

const NOTES = [
  'Met {first} at {company}. Discussed {topic}; they are comparing us with {competitor} and want a revised quote for {qty} × {product} by {weekday}.',
  'Call with {first}: {topic} is the open point. Promised to send the {product} datasheet and a reference customer in {city}.',
  'Visited the {city} store with {first}. Their current tills are {age} years old; {topic} will decide whether they go ahead this quarter.',
  '{first} confirmed that {other} signs off on purchases. Next step: walk them through {topic} and the {product} rollout plan.',
  'Demo of the {product} went well. Questions about {topic} and how it talks to their stock system. Follow up on {weekday}.',
  '{company} is opening {n} new stores this year. Good fit for the {product}; need to settle {topic} before we quote.',
  'Left a voicemail for {first} about {topic}. Will try again {weekday} morning.',
  'Quote sent for {qty} × {product}. {first} expects sign-off from finance once {topic} is settled.',
  '{first} says {competitor} offered {percent}% off. We need an answer on {topic} without discounting the support plan.',
  'Renewal call: {company} is happy with the {product} but wants to revisit {topic}. Their contract ends in {months} months.',
  'Trade show follow-up: {first} stopped by our stand and liked the {product}. Asked about {topic}.',
  'Internal: {company} pays late. Check {topic} with finance before offering longer payment terms.',
  '{first} is leaving {company} at the end of the month and {other} takes over. Go over {topic} again with the new contact.',
  'Site survey in {city}: {n} checkout lanes, weak Wi-Fi in the stock room. {topic} still to agree.',
  'Pilot of {qty} × {product} starts {weekday}. Success criteria agreed; we review {topic} after four weeks.',
  '{first} asked for references in {industry}. Sent two case studies; {topic} is next.',
  'No reply from {first} in two weeks. {topic} may be the blocker; try {other} instead.',
  'Agreed on {topic} with {first}. Paperwork goes out {weekday}; installation pencilled in for {month}.',
  '{first} wants everything installed before the {month} sale. Delivery is tight: check stock with the warehouse before we settle {topic}.',
  'Lunch with {first} and {other}. They liked the {product} in the {city} showroom; {topic} is what worries them.',
];

const TASKS = [
  'Call {person} about {topic}',
  'Send {company} a quote for {qty} × {product} ({topic})',
  'Follow up with {person} on {topic}',
  'Book a {product} demo with {person} and cover {topic}',
  'Visit {company} in {city} to discuss {topic}',
  'Prepare a proposal for {company}: {topic}',
  'Check {topic} with finance before calling {first}',
  'Confirm {topic} with {person} and update the deal',
  'Send {first} the {product} datasheet and a note on {topic}',
  'Ask {first} for the signed order form ({topic})',
];

const TEXTS_OUT = [
  'Hi {first}, running 10 minutes late, see you soon.',
  'Thanks for your time today, {first}. The quote for the {product} follows tomorrow.',
  'Hi {first}, could we move our meeting to {weekday}?',
  'Hi {first}, the {product} you asked about is back in stock.',
  'Reminder: I am at your {city} store {weekday} at {hour}.',
];

const TEXTS_IN = [
  'Sounds good, see you {weekday}.',
  'Please call me back about {topic}.',
  'Got the quote, thanks. I will go over it with finance.',
  'Can you bring a {product} to show the team?',
  'We are closed {weekday}, let us meet the week after.',
];

/** Call summaries by the call's outcome (the names every hub starts with). */
export const CALL_SUMMARIES: Record<string, string[]> = {
  'Interested': ['{first} wants a quote for {qty} × {product}; follow up on {topic}.', '{first} liked the {product} demo video and asked about {topic}.'],
  'Not interested': ['{first} is happy with {competitor} for now. Call again next quarter.', 'No budget this year, says {first}.'],
  'Left voicemail': ['Left a voicemail about {topic}.', 'Voicemail: asked {first} to call back about the {product}.'],
  'No answer': ['No answer; try again {weekday}.', 'Rang twice, nobody picked up.'],
  'Call back later': ['{first} was in a meeting and asked me to call back {weekday} afternoon.', '{first} is travelling; call back next week about {topic}.'],
  'Wrong number': ['Number belongs to someone else: need an up-to-date phone for {first}.'],
};

/** Visit summaries by the visit's outcome (the names every hub starts with). */
export const VISIT_SUMMARIES: Record<string, string[]> = {
  'Met the decision maker': ['Met {first} on site and walked through the {product}. We talked about {topic}; positive.', 'Store tour with {first}; they want {qty} × {product} for the {city} store.'],
  'Left materials': ['{first} was out; left the {product} brochure and the price list at the front desk.', 'Dropped off samples of the {product} for {first}.'],
  'Nobody available': ['Store closed for stocktaking; nobody available. Try again {weekday}.', 'Manager off sick, nobody to talk to.'],
  'Follow-up scheduled': ['Short visit; follow-up booked for {weekday} to go over {topic}.', 'Met the store manager; {first} joins the next visit on {weekday}.'],
  'Not interested': ['Not interested at the moment: they signed with {competitor} last year.', '{first} says the current tills are fine for another year.'],
};

/** The slots a template may name; what is not given is made up. */
export interface Slots {
  first?: string;
  person?: string;
  company?: string;
}

/** Fills a template's `{slots}`: the record's names where given, else faker's, and the shared word lists. */
export function fill(template: string, slots: Slots): string {
  return template.replace(/\{(\w+)\}/g, (whole, slot: string) => {
    switch (slot) {
      case 'first': return slots.first ?? faker.person.firstName();
      case 'person': return slots.person ?? faker.person.fullName();
      case 'company': return slots.company ?? faker.company.name();
      case 'other': return faker.person.fullName();
      case 'competitor': return faker.company.name();
      case 'topic': return faker.helpers.arrayElement(TOPICS);
      case 'product': return faker.helpers.arrayElement(CATALOG).name;
      case 'qty': return String(faker.helpers.arrayElement([2, 4, 5, 6, 10, 12, 20, 25, 40]));
      case 'n': return String(faker.number.int({ min: 2, max: 12 }));
      case 'age': return String(faker.number.int({ min: 4, max: 11 }));
      case 'percent': return String(faker.helpers.arrayElement([5, 8, 10, 12, 15, 20]));
      case 'months': return String(faker.number.int({ min: 1, max: 9 }));
      case 'weekday': return faker.helpers.arrayElement(WEEKDAYS);
      case 'month': return faker.helpers.arrayElement(MONTHS);
      case 'city': return faker.location.city();
      case 'industry': return faker.helpers.arrayElement(INDUSTRIES);
      case 'hour': return faker.helpers.arrayElement(['9:00', '10:30', '11:00', '14:00', '15:30']);
      default: return whole;
    }
  });
}

export const noteText = (slots: Slots) => fill(faker.helpers.arrayElement(NOTES), slots);
export const taskText = (slots: Slots) => fill(faker.helpers.arrayElement(TASKS), slots);
export const textMessage = (incoming: boolean, slots: Slots) => fill(faker.helpers.arrayElement(incoming ? TEXTS_IN : TEXTS_OUT), slots);

/** A summary for a call or visit with this outcome (a made-up one for an outcome an admin added). */
export function summaryFor(summaries: Record<string, string[]>, outcome: string | null, slots: Slots): string {
  const templates = (outcome !== null ? summaries[outcome] : undefined) ?? ['Talked to {first} about {topic}.'];
  return fill(faker.helpers.arrayElement(templates), slots);
}

/** Email templates (merge tags filled when a sequence sends them) and the sequences that use them. */
export const EMAIL_TEMPLATES = [
  {
    name: 'Introduction',
    subject: 'Nice to meet you, {{contact.first_name}}',
    body: 'Hi {{contact.first_name}},\n\nI look after stores in your area for our point-of-sale, scanning and signage range. '
      + 'Many of our customers cut their checkout times by a third after switching.\n\nWould a 20-minute visit next week suit you?\n\nBest regards,\n{{user.name}}',
  },
  {
    name: 'Checking in',
    subject: 'Re: Nice to meet you, {{contact.first_name}}',
    body: 'Hi {{contact.first_name}},\n\njust checking that my last email reached you. I am in the area on Thursday and could drop by with a demo unit.\n\n{{user.name}}',
  },
  {
    name: 'Quote follow-up',
    subject: 'Your quote: any questions?',
    body: 'Hi {{contact.first_name}},\n\nI hope the quote I sent is clear. Happy to go through delivery dates, training and the support plan whenever suits you.\n\nKind regards,\n{{user.name}}',
  },
  {
    name: 'Meeting recap',
    subject: 'Thanks for today, {{contact.first_name}}',
    body: 'Hi {{contact.first_name}},\n\nthanks for showing me around. As promised, I will send the datasheets and a proposal by the end of the week.\n\n{{user.name}}',
  },
  {
    name: 'Renewal reminder',
    subject: 'Your support plan renews soon',
    body: 'Hi {{contact.first_name}},\n\nyour annual support plan is up for renewal next month. Shall we book a short review of how the year went?\n\nBest,\n{{user.name}}',
  },
] as const;

export type TemplateName = (typeof EMAIL_TEMPLATES)[number]['name'];

/** Each step: an email (a template, perhaps as a reply) or a task, after a delay. */
export const SEQUENCES: readonly { name: string; steps: ({ delay: number; unit: 'hours' | 'weekdays' } & ({ email: TemplateName; reply?: boolean } | { task: string }))[] }[] = [
  {
    name: 'New lead outreach',
    steps: [
      { delay: 0, unit: 'hours', email: 'Introduction' },
      { delay: 2, unit: 'weekdays', task: 'Call to follow up on the introduction email' },
      { delay: 3, unit: 'weekdays', email: 'Checking in', reply: true },
      { delay: 5, unit: 'weekdays', task: 'Drop by the store with a demo unit' },
    ],
  },
  {
    name: 'Quote follow-up',
    steps: [
      { delay: 1, unit: 'weekdays', email: 'Quote follow-up' },
      { delay: 2, unit: 'weekdays', task: 'Call about the quote: pricing, delivery dates, training' },
      { delay: 4, unit: 'weekdays', task: 'Ask for the signed order form' },
    ],
  },
  {
    name: 'Support plan renewal',
    steps: [
      { delay: 0, unit: 'hours', email: 'Renewal reminder' },
      { delay: 5, unit: 'weekdays', task: 'Book a renewal review visit' },
      { delay: 2, unit: 'weekdays', email: 'Meeting recap' },
    ],
  },
];
