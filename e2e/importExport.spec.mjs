import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { screenshot, signIn, pageApi, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

// Import and export through the UI: a CSV import with a bad row, a vCard
// round trip, the CSV export of a filtered list, the tasks' calendar export
// and the calendar feed. What the UI did is checked through the REST API.
// Other specs share the hub, so every record here carries this run's marker.

const RUN = Date.now().toString(36);
const MARK = `ie${RUN}`;

let browser;
let seededHub;
let page;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub);
});
test.afterAll(() => closeContexts(browser));

const api = pageApi;
const items = async (path) => {
  const answer = await api(page, 'GET', path);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.items.map((i) => i.data);
};

async function open(link, heading) {
  await page.getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/** Clicks what starts a download; answers the file's name and text. */
async function download(button) {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: file.suggestedFilename(), text: readFileSync(await file.path(), 'utf8') };
}

const fileOf = (name, mimeType, text) => ({ name, mimeType, buffer: Buffer.from(text, 'utf8') });

test.describe('CSV import', () => {
  // Row 2 has no last name: a person needs one, so that row is refused.
  const csv = [
    'Given name,Surname,E-mail,Phone',
    `Ines,Csv${MARK},ines.${MARK}@import.test,+1 555 0101`,
    `Nolast,,nolast.${MARK}@import.test,+1 555 0102`,
    `Omar,Csv${MARK},omar.${MARK}@import.test,+1 555 0103`,
  ].join('\r\n');

  test('says so when the file is empty, and checks every row against the mapping', async () => {
    await open('Contacts', 'Contacts');
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await page.getByRole('heading', { name: 'Import contacts from CSV' }).waitFor();

    await page.getByLabel('CSV file').setInputFiles(fileOf('empty.csv', 'text/csv', '\r\n'));
    await page.getByRole('alert').filter({ hasText: 'The file is empty' }).waitFor();

    await page.getByLabel('CSV file').setInputFiles(fileOf('people.csv', 'text/csv', csv));
    const mapping = page.getByRole('region', { name: 'Map the columns' });
    await mapping.waitFor();
    // Whatever the engine suggested, the columns are mapped here by hand.
    await mapping.getByLabel('Import column Given name as').selectOption('first_name');
    await mapping.getByLabel('Import column Surname as').selectOption('last_name');
    await mapping.getByLabel('Import column E-mail as').selectOption('email');
    await mapping.getByLabel('Import column Phone as').selectOption('phone');

    const check = page.getByRole('region', { name: 'Check and import' });
    await check.getByRole('table', { name: 'Preview' }).getByText(`ines.${MARK}@import.test`).waitFor();
    const problems = check.getByRole('list', { name: 'Problems' });
    await problems.getByText(/Row 2/).waitFor();
    // The field by its label, not its API name.
    assert.match(await problems.textContent(), /Row 2 — Last name/);
    assert.equal(await problems.getByRole('listitem').count(), 1);
    await screenshot(page, '120-csv-import-preview');
  });

  test('imports nothing while a row is bad, then the valid rows when asked', async () => {
    const check = page.getByRole('region', { name: 'Check and import' });
    await check.getByRole('button', { name: 'Import 3 contacts' }).click();
    await check.getByRole('alert').filter({ hasText: 'Nothing was imported: 1 row has problems.' }).waitFor();
    assert.deepEqual(await items(`/v2/contacts?q=${MARK}`), [], 'all or nothing: no contact was created');
    await screenshot(page, '121-csv-import-refused');

    await check.getByRole('button', { name: 'Import the 2 valid rows, skip the rest' }).click();
    const outcome = page.getByRole('region', { name: 'Import finished' });
    await outcome.getByRole('status').filter({ hasText: 'Imported 2 contacts' }).waitFor();
    assert.match(await outcome.getByRole('list', { name: 'Skipped' }).textContent(), /Row 2 — Last name/);
    await screenshot(page, '122-csv-import-done');

    const imported = (await items(`/v2/contacts?q=${MARK}&sort_by=first_name`)).map((c) => [c.first_name, c.last_name, c.email, c.phone]);
    assert.deepEqual(imported, [
      ['Ines', `Csv${MARK}`, `ines.${MARK}@import.test`, '+1 555 0101'],
      ['Omar', `Csv${MARK}`, `omar.${MARK}@import.test`, '+1 555 0103'],
    ]);
    await outcome.getByRole('link', { name: 'Show the contacts' }).click();
    await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
  });
});

test.describe('CSV import of leads', () => {
  test('imports leads with the mapping the engine suggests from the column names', async () => {
    await open('Leads', 'Leads');
    await page.getByRole('link', { name: 'Import CSV' }).click();
    await page.getByRole('heading', { name: 'Import leads from CSV' }).waitFor();
    const csv = `First name,Last name,Company,Email\r\nLea,Lead${MARK},"Acme, Inc.",lea.${MARK}@import.test\r\n`;
    await page.getByLabel('CSV file').setInputFiles(fileOf('leads.csv', 'text/csv', csv));
    const mapping = page.getByRole('region', { name: 'Map the columns' });
    assert.equal(await mapping.getByLabel('Import column Company as').inputValue(), 'organization_name');
    await page.getByRole('table', { name: 'Preview' }).getByText('Acme, Inc.').waitFor();
    await page.getByRole('button', { name: 'Import 1 lead' }).click();
    await page.getByRole('region', { name: 'Import finished' }).getByRole('status').filter({ hasText: 'Imported 1 lead' }).waitFor();
    const leads = (await items(`/v2/leads?q=${MARK}`)).map((l) => [l.first_name, l.last_name, l.organization_name, l.email]);
    assert.deepEqual(leads, [['Lea', `Lead${MARK}`, 'Acme, Inc.', `lea.${MARK}@import.test`]]);
  });
});

test.describe('vCard round trip', () => {
  const tag = `vcf-${MARK}`;
  const person = {
    first_name: 'Zoë', last_name: `Müller${MARK}`, title: 'Head of Purchasing', email: `zoe.${MARK}@vcard.test`,
    phone: '+49 30 1234567', mobile: '+49 170 7654321', fax: '+49 30 1234568', website: 'https://mueller.example',
    description: 'Met at the fair; prefers calls in the morning', tags: [tag, 'trade fair'],
    address: { line1: 'Hauptstraße 5', city: 'Berlin', postal_code: '10115', state: 'BE', country: 'DE' },
  };
  const organization = {
    is_organization: true, name: `Kaffee ${MARK} GmbH`, email: `info.${MARK}@vcard.test`, phone: '+49 40 555000',
    website: 'https://kaffee.example', tags: [tag], address: { line1: 'Elbchaussee 1', city: 'Hamburg', postal_code: '22763', state: null, country: 'DE' },
  };
  const FIELDS = ['is_organization', 'name', 'first_name', 'last_name', 'title', 'email', 'phone', 'mobile', 'fax', 'website', 'description', 'address', 'tags'];
  const comparable = (contact) => Object.fromEntries(FIELDS.map((f) => [f, f === 'tags' ? [...contact.tags].sort() : contact[f]]));
  let originals;
  let vcf;

  test('exports the contacts the list shows as a vCard file', async () => {
    for (const data of [person, organization]) assert.equal((await api(page, 'POST', '/v2/contacts', data)).status, 200);
    originals = (await items(`/v2/contacts?tag=${tag}&sort_by=name`)).map(comparable);
    assert.equal(originals.length, 2);

    await open('Contacts', 'Contacts');
    await page.getByLabel('Tag').fill(tag);
    await page.getByText('1–2 of 2').waitFor();
    await screenshot(page, '123-contacts-filtered-for-export');
    vcf = await download(page.getByRole('button', { name: 'Export vCard' }));
    assert.equal(vcf.name, 'contacts.vcf');
    assert.equal(vcf.text.match(/^BEGIN:VCARD/gm)?.length, 2, 'only the two contacts shown');
    assert.match(vcf.text, /^VERSION:4\.0/m);
    assert.match(vcf.text, new RegExp(`Müller${MARK}`));
  });

  test('imports the file back after the contacts were deleted, with the same fields', async () => {
    for (const { id } of await items(`/v2/contacts?tag=${tag}`)) assert.equal((await api(page, 'DELETE', `/v2/contacts/${id}`)).status, 204);
    assert.deepEqual(await items(`/v2/contacts?tag=${tag}`), []);

    await page.getByRole('link', { name: 'Import vCard' }).click();
    await page.getByRole('heading', { name: 'Import contacts from vCard' }).waitFor();
    await page.getByLabel('vCard file').setInputFiles(fileOf(vcf.name, 'text/vcard', vcf.text));
    const cards = page.getByRole('table', { name: 'Cards' });
    await cards.getByText(`Zoë Müller${MARK}`).waitFor();
    await cards.getByText(`Kaffee ${MARK} GmbH`).first().waitFor();
    await screenshot(page, '124-vcard-import-preview');
    await page.getByRole('button', { name: 'Import 2 contacts' }).click();
    await page.getByRole('region', { name: 'Import finished' }).getByRole('status').filter({ hasText: 'Imported 2 contacts' }).waitFor();
    await screenshot(page, '125-vcard-imported');

    const back = (await items(`/v2/contacts?tag=${tag}&sort_by=name`)).map(comparable);
    assert.deepEqual(back, originals);
  });

  test('refuses a file that is not vCard before sending it', async () => {
    await page.getByRole('button', { name: 'Import another file' }).click();
    await page.getByLabel('vCard file').setInputFiles(fileOf('notes.vcf', 'text/vcard', 'just some notes'));
    await page.getByRole('alert').filter({ hasText: /not a valid vCard/ }).waitFor();
  });
});

test.describe('CSV export of a list view', () => {
  test('exports the leads the filters show, in their sort order, guarding formulas', async () => {
    const tag = `csv-${MARK}`;
    const leads = [
      { first_name: 'Bea', last_name: `Beta${MARK}`, organization_name: '=HYPERLINK("http://evil.test")', status: 'New', tags: [tag] },
      { first_name: 'Al', last_name: `Alpha${MARK}`, organization_name: 'Alpha Works', status: 'New', tags: [tag] },
      { first_name: 'Cy', last_name: `Gamma${MARK}`, organization_name: 'Other tag', status: 'New', tags: [`other-${MARK}`] },
    ];
    for (const data of leads) assert.equal((await api(page, 'POST', '/v2/leads', data)).status, 200);

    await open('Leads', 'Leads');
    await page.getByLabel('Tag').fill(tag);
    await page.getByLabel('Sort by').selectOption('last_name:asc');
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label=Leads] tbody tr').length === 2);
    await screenshot(page, '126-leads-filtered-for-export');
    const file = await download(page.getByRole('button', { name: 'Export CSV' }));
    assert.equal(file.name, 'leads.csv');

    // Columns named as the app names the fields (headers=labels).
    const rows = parse(file.text, { columns: true, bom: true });
    assert.deepEqual(rows.map((r) => r['Last name']), [`Alpha${MARK}`, `Beta${MARK}`]);
    assert.equal(rows[1]['Organization name'], `'=HYPERLINK("http://evil.test")`, 'a formula is kept as text');
    assert.equal(rows[0].Tags, tag);
  });
});

test.describe('Export CSV on every list view', () => {
  const VIEWS = [
    ['Contacts', 'contacts.csv'], ['Deals', 'deals.csv'], ['Tasks', 'tasks.csv'], ['Products', 'products.csv'],
    ['Sequences', 'sequences.csv'], ['Enrollments', 'sequence_enrollments.csv'],
  ];

  test('downloads what each view shows, its filters and sort accepted by the export', async () => {
    for (const [view, name] of VIEWS) {
      await open(view, view);
      const file = await download(page.getByRole('button', { name: 'Export CSV' }));
      assert.equal(file.name, name, view);
      // A header row of the record's fields by their labels, unless there is nothing at all to export.
      const text = file.text.replace(/^\uFEFF/, '');
      if (text !== '') assert.match(text, /^ID,/, view);
      assert.equal(await page.getByRole('alert').count(), 0, `${view}: no refusal`);
    }
  });
});

test.describe('tasks as a calendar', () => {
  let me;
  const content = `Call back ${MARK}`;

  test('exports the tasks as an .ics file', async () => {
    me = (await api(page, 'GET', '/v2/users/self')).body.data;
    const due = new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString();
    const task = await api(page, 'POST', '/v2/tasks', { content, due_date: due, owner_id: me.id });
    assert.equal(task.status, 200, JSON.stringify(task.body));

    await open('Tasks', 'Tasks');
    await page.getByText(content).waitFor();
    const file = await download(page.getByRole('button', { name: 'Export calendar (.ics)' }));
    assert.match(file.name, /\.ics$/);
    assert.match(file.text, /^BEGIN:VCALENDAR/);
    assert.match(file.text, new RegExp(`SUMMARY:${content}`));
    assert.match(file.text, new RegExp(`UID:task-${task.body.data.id}@`));
  });

  test('turns the calendar feed on, shows its URL once, replaces it and turns it off', async () => {
    await open('Settings', 'Settings');
    const card = page.getByRole('region', { name: 'Calendar feed', exact: true });
    await card.scrollIntoViewIfNeeded();
    // A feed left on by an earlier run is turned off first.
    if (await card.getByRole('button', { name: 'Turn off' }).isVisible()) {
      await card.getByRole('button', { name: 'Turn off' }).click();
      await page.getByRole('alertdialog', { name: 'Turn the calendar feed off?' }).getByRole('button', { name: 'Turn off' }).click();
    }
    await card.getByRole('button', { name: 'Turn on' }).click();
    const url = await card.getByRole('textbox', { name: 'Feed URL' }).inputValue();
    assert.match(url, /\/calendar\/[^/]+\.ics$/);
    await screenshot(page, '127-calendar-feed-on');

    // Calendar apps send no Authorization header: the URL is the permission.
    const feed = await fetch(url);
    assert.equal(feed.status, 200);
    assert.match(feed.headers.get('content-type'), /^text\/calendar/);
    assert.match(await feed.text(), new RegExp(`SUMMARY:${content}`));

    await page.reload();
    await card.getByRole('status').filter({ hasText: 'On since' }).waitFor();
    assert.equal(await card.getByRole('textbox', { name: 'Feed URL' }).count(), 0, 'the URL is shown only once');

    await card.getByRole('button', { name: 'Get a new URL' }).click();
    const renewed = await card.getByRole('textbox', { name: 'Feed URL' }).inputValue();
    assert.notEqual(renewed, url);
    assert.equal((await fetch(url)).status, 404, 'the old URL stopped working');
    assert.equal((await fetch(renewed)).status, 200);

    await card.getByRole('button', { name: 'Turn off' }).click();
    await page.getByRole('alertdialog', { name: 'Turn the calendar feed off?' }).getByRole('button', { name: 'Turn off' }).click();
    await card.getByRole('status').filter({ hasText: 'Off.' }).waitFor();
    assert.equal((await fetch(renewed)).status, 404);
    await screenshot(page, '128-calendar-feed-off');
  });
});
