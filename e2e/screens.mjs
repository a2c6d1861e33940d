// Every main screen of the app, and the records they show: one inventory for
// the specs that visit them all (responsive.spec.mjs: fits the width and
// screenshots; accessibility.spec.mjs: axe-core's audit).
//
// Other specs share the hub: the account's plan and add-ons are set so every
// screen has something to show, and put back as they were afterwards, as is
// the custom object made here.
import { atRest, pageApi } from './browser.mjs';

export const PHONE = { width: 390, height: 844 };
export const SMALL_PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 800 };
const OBJECT = 'site_visit_form';

/** A call to the custom-objects interface (its bodies are not in the /v2 envelope). */
function support(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const { access } = JSON.parse(sessionStorage.getItem('outpost.tokens'));
    const headers = { Authorization: `Bearer ${access}`, 'Content-Type': 'application/json' };
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: await response.text() };
  }, { method, path, body });
}

/**
 * Finds or makes the records the record screens show, on a signed-in admin's
 * page; returns them (and the account as it was) for `screens` and `removeFixtures`.
 */
export async function makeFixtures(page) {
  const api = (method, path, data) => pageApi(page, method, path, data);
  const items = async (path) => (await api('GET', path)).body.items.map((i) => i.data);
  const made = {};
  made.account = (await api('GET', '/v2/accounts/self')).body.data;
  // Products and enrollments show only on a plan and with add-ons that have them.
  await api('PUT', '/v2/accounts/self', { plan: 'elite', addons: ['outbound_sequences'], commerce_changes: 'enabled' });
  // A person in an organization, and that organization with its people; one of their deals if they have one.
  made.person = (await items('/v2/contacts?is_organization=false&per_page=100')).find((c) => c.contact_id);
  made.organization = (await api('GET', `/v2/contacts/${made.person.contact_id}`)).body.data;
  made.lead = (await items('/v2/leads?sort_by=updated_at:desc&per_page=1'))[0];
  made.deal = (await items(`/v2/deals?contact_id=${made.person.id}&per_page=1`))[0] ?? (await items('/v2/deals?per_page=1'))[0];
  made.sequence = (await items('/v2/sequences?per_page=1'))[0];
  const enrolled = await api('POST', '/v2/sequence_enrollments', { sequence_id: made.sequence.id, resource_type: 'contact', resource_id: made.person.id });
  made.enrollment = enrolled.status === 200 ? enrolled.body.data : (await items('/v2/sequence_enrollments?per_page=1'))[0];
  await support(page, 'POST', '/api/v2/custom_objects', { custom_object: { key: OBJECT, title: 'Site visit form', title_pluralized: 'Site visit forms' } });
  for (const [key, type, title] of [['visited_on', 'date', 'Visited on'], ['checklist_done', 'checkbox', 'Checklist done'], ['notes', 'textarea', 'Notes']]) {
    await support(page, 'POST', `/api/v2/custom_objects/${OBJECT}/fields`, { custom_object_field: { key, type, title } });
  }
  for (const name of ['Denver store, March', 'Boulder depot, April']) {
    await support(page, 'POST', `/api/v2/custom_objects/${OBJECT}/records`, { custom_object_record: { name, custom_object_fields: { visited_on: '2026-03-02', checklist_done: true } } });
  }
  // The app reads the objects when it starts: once more, with the new one.
  await page.reload();
  await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
  return made;
}

/** Puts the account back as it was and removes what `makeFixtures` made. */
export async function removeFixtures(page, made) {
  const api = (method, path, data) => pageApi(page, method, path, data);
  await support(page, 'DELETE', `/api/v2/custom_objects/${OBJECT}`);
  if (made.enrollment?.state === 'active') await api('PUT', `/v2/sequence_enrollments/${made.enrollment.id}`, { state: 'finished' });
  const { account } = made;
  if (account) await api('PUT', '/v2/accounts/self', { plan: account.plan, addons: account.addons, commerce_changes: account.commerce_changes });
}

/** Every screen: a name for its screenshot, its path, and a heading that says it is there. */
export function screens(made) {
  const { person, organization, lead, deal, sequence, enrollment } = made;
  const personName = [person.first_name, person.last_name].filter(Boolean).join(' ');
  return [
    ['today', '/', 'Today'],
    ['contacts', '/contacts', 'Contacts'],
    ['contact', `/contacts/${person.id}`, personName],
    ['organization', `/contacts/${organization.id}`, organization.name],
    ['contact-new', '/contacts/new', 'New contact'],
    ['contact-edit', `/contacts/${person.id}/edit`, 'Edit contact'],
    ['contacts-import-csv', '/contacts/import', 'Import contacts from CSV'],
    ['contacts-import-vcard', '/contacts/import-vcard', 'Import contacts from vCard'],
    ['leads', '/leads', 'Leads'],
    ['lead', `/leads/${lead.id}`, [lead.first_name, lead.last_name].filter(Boolean).join(' ') || lead.organization_name],
    ['lead-new', '/leads/new', 'New lead'],
    ['deals', '/deals', 'Deals'],
    ['deal', `/deals/${deal.id}`, deal.name],
    ['deal-new', '/deals/new', 'New deal'],
    ['tasks', '/tasks', 'Tasks'],
    ['notes', '/notes', 'Notes'],
    ['reports', '/reports', 'Reports'],
    ['products', '/products', 'Products'],
    ['sequences', '/sequences', 'Sequences'],
    ['sequence', `/sequences/${sequence.id}`, sequence.name],
    ['sequence-new', '/sequences/new', 'New sequence'],
    ['enrollments', '/enrollments', 'Enrollments'],
    ['enrollment', `/enrollments/${enrollment.id}`, enrollment.sequence.data.name],
    ['settings', '/settings', 'Settings'],
    ['settings-pipelines', '/settings/pipelines', 'Pipelines and stages'],
    ['settings-lists', '/settings/lists', 'Sources and reasons'],
    ['settings-fields', '/settings/fields', 'Custom fields'],
    ['settings-team', '/settings/team', 'Team'],
    ['custom-objects', '/settings/custom-objects', 'Custom objects'],
    ['custom-object', `/settings/custom-objects/${OBJECT}`, 'Site visit form'],
    ['objects', '/objects', 'Objects'],
    ['object-records', `/objects/${OBJECT}`, 'Site visit forms'],
    ['object-record-new', `/objects/${OBJECT}/new`, 'New Site visit form'],
    ['sync-issues', '/sync-issues', 'Sync issues'],
    ['not-found', '/somewhere/else', 'Page not found'],
  ];
}

/** Opens a screen the way the app's links do (the hub serves the UI at its own paths only). */
export async function go(page, path, heading) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
  // Panels, names and counts arrive after the heading.
  await atRest(page);
}
