import { faker } from '@faker-js/faker';
import type { Engine } from '../engine.js';
import { DAY, Pool, allEntries, runSeed, sent, type DemoUsers } from './demoSetup.js';
import { CALL_SUMMARIES, EMAIL_TEMPLATES, SEQUENCES, VISIT_SUMMARIES, summaryFor, type Slots } from './phrases.js';

/** A contact or a lead that calls and visits are about. */
interface Party {
  type: 'contact' | 'lead';
  id: number;
  slots: Slots;
  phone: string | null;
  address: string | null;
}

const PARTY_COLUMNS = 'phone, mobile, address_line1, address_city, address_state, address_postal_code';

/** Contacts and the leads not converted yet (a converted lead's activities belong to its contacts). */
function parties(engine: Engine): { contacts: Pool<Party>; leads: Pool<Party> } {
  const shape = (type: Party['type']) => (row: Record<string, unknown>): Party => {
    const text = (column: string) => row[column] as string | null;
    const [line1, city, state, postal] = [text('address_line1'), text('address_city'), text('address_state'), text('address_postal_code')];
    return {
      type, id: row.id as number,
      slots: { first: text('first_name') ?? undefined, person: text('name') ?? undefined, company: text('company') ?? undefined },
      phone: text('phone') ?? text('mobile'),
      address: line1 && city ? `${line1}, ${city}${state ? `, ${state}` : ''}${postal ? ` ${postal}` : ''}` : null,
    };
  };
  return {
    contacts: new Pool(engine, 'SELECT id FROM contacts ORDER BY id', `SELECT c.id, c.first_name, c.name, CASE c.is_organization WHEN 1 THEN c.name ELSE o.name END AS company,
      ${PARTY_COLUMNS.split(', ').map((column) => `c.${column}`).join(', ')} FROM contacts c LEFT JOIN contacts o ON o.id = c.contact_id WHERE c.id = ?`, shape('contact')),
    leads: new Pool(engine, "SELECT id FROM leads WHERE status <> 'Converted' ORDER BY id", `SELECT id, first_name,
      trim(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) AS name, organization_name AS company, ${PARTY_COLUMNS}
      FROM leads WHERE id = ?`, shape('lead')),
  };
}

/** Mostly a contact, at times a lead (when there are any). */
function pickParty(all: { contacts: Pool<Party>; leads: Pool<Party> }, leadShare: number): Party {
  const fromLeads = all.leads.size > 0 && (all.contacts.size === 0 || faker.number.float() < leadShare);
  return (fromLeads ? all.leads : all.contacts).draw();
}

export interface OutreachSummary {
  calls: number;
  visits: number;
}

/**
 * `calls` calls and `visits` visits through their services, by the owners,
 * over the past weeks: calls with an outcome (a missed incoming call has
 * none), a summary that fits it, the other side's phone, at times the deal
 * they were about; visits at the contact's or lead's address with an
 * outcome and a summary. One transaction.
 */
export function seedCallsAndVisits(engine: Engine, calls: number, visits: number, users: DemoUsers, seed = 19): OutreachSummary {
  if (calls + visits === 0) return { calls, visits };
  const all = parties(engine);
  if (all.contacts.size + all.leads.size === 0) throw new Error('No contacts yet: seed some with --contacts first.');
  const dealsOf = new Map<number, number[]>();
  for (const [contactId, dealId] of engine.db.prepare('SELECT contact_id, id FROM deals WHERE contact_id IS NOT NULL').raw().all() as [number, number][]) {
    dealsOf.set(contactId, [...(dealsOf.get(contactId) ?? []), dealId]);
  }
  const callOutcomes = allEntries(engine, engine.callOutcomes);
  const visitOutcomes = allEntries(engine, engine.visitOutcomes);
  const now = engine.clock.now().getTime();
  engine.db.transaction(() => {
    faker.seed(runSeed(engine, 'calls', seed));
    for (let i = 0; i < calls; i++) {
      const party = pickParty(all, 0.2);
      const user = faker.helpers.arrayElement(users.all);
      const incoming = faker.number.int(3) === 0;
      const missed = incoming && faker.number.int(3) === 0;
      const outcome = missed || callOutcomes.size === 0 ? null : faker.helpers.arrayElement([...callOutcomes.keys()]);
      const deals = party.type === 'contact' ? dealsOf.get(party.id) ?? [] : [];
      engine.calls.create(sent({
        user_id: user.userId, resource_type: party.type, resource_id: party.id,
        phone_number: party.phone ?? faker.phone.number({ style: 'national' }),
        incoming, missed,
        outcome_id: outcome === null ? null : callOutcomes.get(outcome),
        duration: missed ? 0 : faker.number.int({ min: 20, max: 1800 }),
        summary: missed ? null : summaryFor(CALL_SUMMARIES, outcome, party.slots),
        associated_deal_ids: deals.length > 0 && faker.number.int(2) === 0 ? [faker.helpers.arrayElement(deals)] : [],
        made_at: new Date(now - faker.number.int({ min: 600, max: 60 * 86_400 }) * 1000).toISOString(),
      }), user);
    }
    for (let i = 0; i < visits; i++) {
      const party = pickParty(all, 0.15);
      const user = faker.helpers.arrayElement(users.all);
      const outcome = visitOutcomes.size === 0 ? null : faker.helpers.arrayElement([...visitOutcomes.keys()]);
      // During opening hours, some day in the last three months.
      const day = new Date(now - faker.number.int({ min: 1, max: 90 }) * DAY);
      day.setUTCHours(faker.number.int({ min: 8, max: 17 }), faker.helpers.arrayElement([0, 15, 30, 45]), 0, 0);
      engine.visits.create(sent({
        resource_type: party.type, resource_id: party.id,
        outcome_id: outcome === null ? null : visitOutcomes.get(outcome),
        visited_at: day.toISOString(),
        resource_address: party.address,
        rep_location_verification_status: faker.helpers.weightedArrayElement([
          { value: 'verified', weight: 14 }, { value: 'resource_location_too_far', weight: 2 }, { value: 'location_unknown', weight: 3 },
          { value: 'location_services_disabled', weight: 1 },
        ]),
        summary: summaryFor(VISIT_SUMMARIES, outcome, party.slots),
      }), user);
    }
  }).immediate();
  return { calls, visits };
}

export interface SequenceSummary {
  templates: number;
  sequences: number;
  steps: number;
}

/**
 * The demo email templates and the sequences using them, through their
 * services as the first admin, each created unless one of its name exists
 * (names are unique per account); nobody is enrolled, so nothing is sent.
 */
export function seedSequences(engine: Engine, users: DemoUsers): SequenceSummary {
  const summary: SequenceSummary = { templates: 0, sequences: 0, steps: 0 };
  engine.db.transaction(() => {
    const templateId = engine.db.prepare('SELECT id FROM email_templates WHERE name = ? ORDER BY id LIMIT 1').pluck();
    const templates = new Map<string, number>();
    for (const template of EMAIL_TEMPLATES) {
      let id = templateId.get(template.name) as number | undefined;
      if (id === undefined) {
        id = engine.emailTemplates.create({ ...template }, users.admin);
        summary.templates++;
      }
      templates.set(template.name, id);
    }
    const sequenceExists = engine.db.prepare('SELECT 1 FROM sequences WHERE name = ?');
    for (const sequence of SEQUENCES) {
      if (sequenceExists.get(sequence.name) !== undefined) continue;
      engine.sequences.create({
        name: sequence.name,
        unsubscribe_settings: { enabled: true, locale: 'en' },
        steps: sequence.steps.map((step) => ({
          delay_from_previous_step: step.delay, delay_from_previous_step_unit: step.unit,
          ...('email' in step
            ? { action_type: 'automated_email', action_properties: { email_template_id: templates.get(step.email), is_reply: step.reply === true } }
            : { action_type: 'task', action_properties: { task_content: step.task } }),
        })),
      }, users.admin);
      summary.sequences++;
      summary.steps += sequence.steps.length;
    }
  }).immediate();
  return summary;
}
