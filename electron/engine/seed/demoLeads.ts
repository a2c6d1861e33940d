import { faker } from '@faker-js/faker';
import type { Engine } from '../engine.js';
import { LEAD_STATUSES, CONVERTED_LEAD_STATUS } from '../../../shared/resources/lead.js';
import { UniqueEmails } from './uniqueEmails.js';
import { ensureEntries, runSeed, sent, type DemoUsers } from './demoSetup.js';
import { INDUSTRIES, fill } from './phrases.js';

const SOURCES = ['Website', 'Trade show', 'Referral', 'Cold call', 'Webinar', 'Partner'];
const UNQUALIFIED_REASONS = ['No budget', 'Wrong contact', 'Not interested', 'Too small'];
const TAGS = ['trade-show', 'webinar', 'inbound', 'referral', 'follow-up', 'key-account'];
/** How often each status comes up (New, Working, Unqualified, Converted). */
const STATUS_WEIGHTS: Record<(typeof LEAD_STATUSES)[number], number> = { New: 35, Working: 35, Unqualified: 15, Converted: 15 };
const DESCRIPTIONS = [
  'Asked for a demo of the {product} at the trade show.',
  'Filled in the contact form: {n} stores, looking at {topic}.',
  'Referred by a customer in {city}.',
  'Downloaded the {industry} case study.',
];

export interface LeadSummary {
  leads: number;
  /** Leads per status, in LEAD_STATUSES order. */
  byStatus: Map<string, number>;
  /** What the conversions made: people and organizations (contacts). */
  convertedInto: { people: number; organizations: number };
}

/** A plausible web domain for a company name: "Gutmann, Lind and Kub" → gutmannlindandkub.com. */
export function domainOf(company: string): string {
  return `${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.com`;
}

/**
 * `count` leads through the leads service, spread over the owners, in every
 * status Outpost suggests (each one at least once when there are enough
 * leads). A Converted lead really is converted (lead conversions service,
 * without a deal): it becomes a person, and an organization when it has one,
 * which keep the lead's email. One transaction; no email another contact or
 * lead has.
 */
export function seedLeads(engine: Engine, count: number, users: DemoUsers, seed = 11): LeadSummary {
  const summary: LeadSummary = { leads: count, byStatus: new Map(LEAD_STATUSES.map((s) => [s, 0])), convertedInto: { people: 0, organizations: 0 } };
  if (count === 0) return summary;
  engine.db.transaction(() => {
    faker.seed(runSeed(engine, 'leads', seed));
    const emails = new UniqueEmails(engine.db);
    const sources = [...ensureEntries(engine, engine.leadSources, SOURCES, users.admin).values()];
    const reasons = [...ensureEntries(engine, engine.leadUnqualifiedReasons, UNQUALIFIED_REASONS, users.admin).values()];
    const weighted = LEAD_STATUSES.map((value) => ({ value, weight: STATUS_WEIGHTS[value] }));
    for (let i = 0; i < count; i++) {
      const status = i < LEAD_STATUSES.length ? LEAD_STATUSES[i] : faker.helpers.weightedArrayElement(weighted);
      const owner = faker.helpers.arrayElement(users.all);
      const first = faker.person.firstName();
      const last = faker.person.lastName();
      const company = faker.number.int(9) < 8 ? faker.company.name() : null;
      const domain = company ? domainOf(company) : undefined;
      const converted = status === CONVERTED_LEAD_STATUS;
      const id = engine.leads.create(sent({
        owner_id: owner.userId, first_name: first, last_name: last, organization_name: company,
        // A converted lead was being worked on; the conversion marks it Converted.
        status: converted ? 'Working' : status,
        title: faker.person.jobTitle(),
        email: emails.claim(faker.internet.email({ firstName: first, lastName: last, provider: domain })),
        phone: faker.phone.number({ style: 'national' }),
        mobile: faker.datatype.boolean() ? faker.phone.number({ style: 'international' }) : null,
        website: domain ? `https://www.${domain}` : null,
        industry: company ? capitalized(faker.helpers.arrayElement(INDUSTRIES)) : null,
        description: faker.number.int(2) === 0 ? fill(faker.helpers.arrayElement(DESCRIPTIONS), {}) : null,
        address: {
          line1: faker.location.streetAddress(), city: faker.location.city(), postal_code: faker.location.zipCode(),
          state: faker.location.state({ abbreviated: true }), country: 'US',
        },
        tags: faker.helpers.arrayElements(TAGS, { min: 0, max: 2 }),
        source_id: faker.number.int(4) > 0 ? faker.helpers.arrayElement(sources) : null,
        unqualified_reason_id: status === 'Unqualified' ? faker.helpers.arrayElement(reasons) : null,
      }), owner);
      if (converted) {
        engine.leadConversions.create({ lead_id: id, create_deal: false }, owner);
        summary.convertedInto.people++;
        if (company) summary.convertedInto.organizations++;
      }
      summary.byStatus.set(status, summary.byStatus.get(status)! + 1);
    }
    // Conversions move a lead's activities in the background: these have none yet, so settle them here.
    engine.leadConversions.activities.runPending();
  }).immediate();
  return summary;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
