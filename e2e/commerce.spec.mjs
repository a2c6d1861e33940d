import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { screenshot, signIn, pageApi, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

// Products, a deal's order and the account switches. The admin keeps the
// catalog and the settings; the agent builds the order. Other specs share the
// hub, so the account is put back as it was found (in `after` too, should a
// test fail half way).

let browser;
let seededHub;
let admin;
let agent;
let initialAccount;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  admin = await signIn(browser, seededHub);
  agent = await signIn(browser, seededHub, 'agent');
  initialAccount = (await api(admin, 'GET', '/v2/accounts/self')).body.data;
});
test.afterAll(async () => {
  if (initialAccount && admin) {
    const { plan, addons, commerce_changes } = initialAccount;
    await api(admin, 'PUT', '/v2/accounts/self', { plan, addons, commerce_changes });
  }
  await closeContexts(browser);
});

/** The REST API as the page's signed-in user (its token is in the tab's sessionStorage). */
const api = pageApi;

const messageOf = (answer) => answer.body.errors.map((e) => e.error.message).join(' ');
const byCurrency = (prices) => [...prices].sort((a, b) => a.currency.localeCompare(b.currency));

async function open(page, link, heading = link) {
  await page.getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/** Saves the plan-and-features card after `change` set its controls, and waits for the confirmation. */
async function saveAccount(change) {
  await open(admin, 'Settings');
  const card = admin.getByRole('form', { name: 'Plan and features' });
  await change(card);
  await card.getByRole('button', { name: 'Save plan and features' }).click();
  await card.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  return card;
}

test.describe('products, orders and line items', () => {
  let espressoId;
  let grinderId;
  let dealId;
  let orderId;

  test('lets an admin add a product with two prices, showing the API\'s errors by their fields', async () => {
    const grinder = await api(admin, 'POST', '/v2/products', {
      name: 'Burr Grinder', sku: 'BG-2', max_discount: 10, prices: [{ amount: '49.99', currency: 'USD' }],
    });
    assert.equal(grinder.status, 200);
    grinderId = grinder.body.data.id;

    await open(admin, 'Products');
    await admin.getByRole('button', { name: 'New product' }).click();
    const form = admin.getByRole('form', { name: 'New product' });
    await form.getByLabel('Price 1 amount').fill('12.345');
    await form.getByRole('button', { name: 'Save product' }).click();
    await form.locator('.field.invalid').filter({ hasText: 'Name' }).getByRole('alert').waitFor();
    await form.locator('.prices-editor.invalid').getByRole('alert').waitFor();

    await form.getByLabel('Name *').fill('Espresso Machine');
    await form.getByLabel('SKU').fill('EM-1');
    await form.getByLabel('Max discount %').fill('10');
    await form.getByLabel('Max markup %').fill('20');
    await form.getByLabel('Cost', { exact: true }).fill('700');
    await form.getByLabel('Cost currency').selectOption('USD');
    await form.getByLabel('Price 1 amount').fill('1200.50');
    await form.getByLabel('Price 1 currency').selectOption('USD');
    await form.getByRole('button', { name: 'Add price' }).click();
    await form.getByLabel('Price 2 amount').fill('1100');
    await form.getByLabel('Price 2 currency').selectOption('EUR');
    await screenshot(admin, '80-new-product');
    await form.getByRole('button', { name: 'Save product' }).click();
    await form.waitFor({ state: 'detached' });

    const row = admin.getByRole('row', { name: 'Espresso Machine' });
    await row.getByText('$1,200.50').waitFor();
    await row.getByText('€1,100.00', { exact: false }).waitFor();
    await row.getByText('$700.00').waitFor();
    const products = (await api(admin, 'GET', '/v2/products?sku=EM-1')).body.items.map((i) => i.data);
    assert.equal(products.length, 1);
    espressoId = products[0].id;
    assert.deepEqual(byCurrency(products[0].prices), [{ amount: '1100', currency: 'EUR' }, { amount: '1200.5', currency: 'USD' }]);
    assert.deepEqual([products[0].cost, products[0].cost_currency, products[0].max_discount, products[0].max_markup, products[0].active], ['700', 'USD', 10, 20, true]);
    await screenshot(admin, '81-products-admin');
  });

  test('filters the catalog by SKU, and an admin deletes a product', async () => {
    const kettle = await api(admin, 'POST', '/v2/products', { name: 'Old Kettle', sku: 'OK-0', prices: [{ amount: '15', currency: 'USD' }] });
    assert.equal(kettle.status, 200);
    await admin.reload();
    await admin.getByLabel('Filter by SKU').fill('OK-0');
    await admin.getByRole('row', { name: 'Old Kettle' }).waitFor();
    await admin.getByRole('row', { name: 'Espresso Machine' }).waitFor({ state: 'detached' });

    // Saved prices replace the product's prices whole.
    await admin.getByRole('button', { name: 'Edit Old Kettle' }).click();
    const form = admin.getByRole('form', { name: 'Edit Old Kettle' });
    await form.getByRole('button', { name: 'Remove price 1' }).click();
    await form.getByRole('button', { name: 'Add price' }).click();
    await form.getByLabel('Price 1 amount').fill('12.00');
    await form.getByLabel('Price 1 currency').selectOption('GBP');
    await form.getByLabel('Active (can be added to orders)').uncheck();
    await form.getByRole('button', { name: 'Save product' }).click();
    await admin.getByRole('row', { name: 'Old Kettle' }).getByText('£12.00').waitFor();
    const edited = (await api(admin, 'GET', `/v2/products/${kettle.body.data.id}`)).body.data;
    assert.deepEqual([edited.prices, edited.active], [[{ amount: '12', currency: 'GBP' }], false]);

    await admin.getByRole('button', { name: 'Delete Old Kettle' }).click();
    await admin.getByRole('alertdialog', { name: 'Delete Old Kettle from the catalog?' }).getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('No products match.').waitFor();
    assert.equal((await api(admin, 'GET', `/v2/products/${kettle.body.data.id}`)).status, 404);
    await admin.getByLabel('Filter by SKU').fill('');
    await admin.getByRole('row', { name: 'Espresso Machine' }).waitFor();
  });

  test('shows an agent the catalog read only, without costs', async () => {
    await open(agent, 'Products');
    const row = agent.getByRole('row', { name: 'Espresso Machine' });
    await row.getByText('$1,200.50').waitFor();
    await agent.getByText('Only administrators change the catalog.').waitFor();
    assert.equal(await agent.getByRole('button', { name: 'New product' }).count(), 0);
    assert.equal(await agent.getByRole('button', { name: /^(Edit|Delete) / }).count(), 0);
    assert.equal(await agent.getByRole('columnheader', { name: 'Cost' }).count(), 0);
    assert.equal(await row.getByText('$700.00').count(), 0);
    assert.equal((await api(agent, 'GET', `/v2/products/${espressoId}`)).body.data.cost, null);
    assert.equal((await api(agent, 'PUT', `/v2/products/${espressoId}`, { name: 'Hacked' })).status, 403);
    await screenshot(agent, '82-products-agent');
  });

  test('builds an order on a deal: two line items, a discount and exact totals', async () => {
    const stage = (await api(agent, 'GET', '/v2/stages?per_page=100')).body.items[0].data;
    const contact = await api(agent, 'POST', '/v2/contacts', { first_name: 'Olga', last_name: 'Orderly' });
    const deal = await api(agent, 'POST', '/v2/deals', { name: 'Café Fit-out', value: '2500', currency: 'USD', contact_id: contact.body.data.id, stage_id: stage.id });
    assert.equal(deal.status, 200);
    dealId = deal.body.data.id;

    await agent.goto(new URL(`/deals/${dealId}`, agent.url()).href);
    await agent.getByRole('heading', { name: 'Café Fit-out' }).waitFor();
    const panel = agent.getByRole('region', { name: 'Order' });
    await panel.getByRole('button', { name: 'Start an order' }).click();
    await panel.getByText('No line items yet.').waitFor();
    const orders = (await api(agent, 'GET', `/v2/orders?deal_id=${dealId}`)).body.items.map((i) => i.data);
    assert.equal(orders.length, 1);
    orderId = orders[0].id;

    const form = panel.getByRole('form', { name: 'Add a line item' });
    const addLine = async (product, currency, quantity, variation) => {
      await form.getByLabel('Product', { exact: true }).selectOption({ label: product });
      await form.getByLabel('Currency', { exact: true }).selectOption(currency);
      await form.getByLabel('Quantity', { exact: true }).fill(quantity);
      await form.getByLabel('Variation %', { exact: true }).fill(variation);
      await form.getByRole('button', { name: 'Add line item' }).click();
    };
    // 1200.50 × 1.05 = 1260.525: the unit value rounds half up to 1260.53.
    await addLine('Espresso Machine (EM-1)', 'USD', '2', '5');
    await panel.getByRole('row', { name: 'Espresso Machine' }).getByText('$2,521.06').waitFor();

    // The grinder allows 10 % off at most: 50 % is refused by the API, shown by the field.
    await addLine('Burr Grinder (BG-2)', 'USD', '3', '-50');
    await form.locator('.field.invalid').filter({ hasText: 'Variation %' }).getByRole('alert').waitFor();
    await form.getByLabel('Variation %', { exact: true }).fill('-10');
    await form.getByText('-10% variation', { exact: false }).waitFor();
    await form.getByRole('button', { name: 'Add line item' }).click();
    await panel.getByRole('row', { name: 'Burr Grinder' }).getByText('$134.97').waitFor();

    await panel.getByLabel('Discount %', { exact: true }).fill('15');
    await panel.getByRole('button', { name: 'Save discount' }).click();
    // 2521.06 + 134.97 = 2656.03; less 15 %: 2257.6255 → 2257.63, so the discount is 398.40.
    await panel.getByLabel('Total in USD', { exact: true }).filter({ hasText: '$2,257.63' }).waitFor();
    await panel.scrollIntoViewIfNeeded();
    assert.equal(await panel.getByLabel('Subtotal in USD', { exact: true }).textContent(), '$2,656.03');
    assert.equal(await panel.getByLabel('Discount in USD', { exact: true }).textContent(), '−$398.40');
    await screenshot(agent, '83-deal-order');

    const order = (await api(agent, 'GET', `/v2/orders/${orderId}`)).body.data;
    assert.equal(order.discount, 15);
    assert.deepEqual(order.totals, [{ currency: 'USD', subtotal: '2656.03', total: '2257.63' }]);
    const lines = (await api(agent, 'GET', `/v2/orders/${orderId}/line_items`)).body.items.map((i) => i.data);
    assert.deepEqual(lines.map((l) => [l.product_id, l.currency, l.quantity, l.variation, l.price, l.value]), [
      [espressoId, 'USD', 2, 5, '1200.5', '1260.53'],
      [grinderId, 'USD', 3, -10, '49.99', '44.99'],
    ]);
  });

  test('removes a line item and the totals follow', async () => {
    const panel = agent.getByRole('region', { name: 'Order' });
    await panel.getByRole('button', { name: 'Remove line item Burr Grinder' }).click();
    await panel.getByRole('row', { name: 'Burr Grinder' }).waitFor({ state: 'detached' });
    // 2521.06 less 15 %: 2142.901 → 2142.90.
    await panel.getByLabel('Total in USD', { exact: true }).filter({ hasText: '$2,142.90' }).waitFor();
    assert.equal(await panel.getByLabel('Subtotal in USD', { exact: true }).textContent(), '$2,521.06');
    const order = (await api(agent, 'GET', `/v2/orders/${orderId}`)).body.data;
    assert.deepEqual(order.totals, [{ currency: 'USD', subtotal: '2521.06', total: '2142.9' }]);
    assert.equal((await api(agent, 'GET', `/v2/orders/${orderId}/line_items`)).body.items.length, 1);
  });

  test('when an admin turns changes off, the order is read only and refusals show the API\'s message', async () => {
    await saveAccount((card) => card.getByLabel('Allow changes to products, orders and line items').uncheck());
    await screenshot(admin, '84-settings-changes-off');
    assert.equal((await api(admin, 'GET', '/v2/accounts/self')).body.data.commerce_changes, 'disabled');
    const refused = await api(agent, 'DELETE', `/v2/orders/${orderId}`);
    assert.equal(refused.status, 403);

    // The agent's page was open before the switch: a change tried there shows the API's refusal.
    const panel = agent.getByRole('region', { name: 'Order' });
    await panel.getByRole('button', { name: 'Remove line item Espresso Machine' }).click();
    await panel.getByRole('alert').filter({ hasText: messageOf(refused) }).waitFor();
    assert.equal((await api(agent, 'GET', `/v2/orders/${orderId}/line_items`)).body.items.length, 1, 'the data stays');

    // Opened again, the order is read only: the totals stay, the controls are gone.
    await agent.reload();
    await panel.getByRole('note').filter({ hasText: 'turned off changes' }).waitFor();
    await panel.getByLabel('Total in USD', { exact: true }).filter({ hasText: '$2,142.90' }).waitFor();
    await panel.getByText('Discount: 15%').waitFor();
    for (const name of ['Add line item', 'Save discount', 'Delete order', 'Remove line item Espresso Machine']) {
      assert.equal(await panel.getByRole('button', { name }).count(), 0, `no ${name} button`);
    }
    await panel.scrollIntoViewIfNeeded();
    await screenshot(agent, '85-deal-order-read-only');

    await open(admin, 'Products');
    await admin.getByRole('note').filter({ hasText: 'turned off changes' }).waitFor();
    await admin.getByRole('row', { name: 'Espresso Machine' }).waitFor();
    assert.equal(await admin.getByRole('button', { name: 'New product' }).count(), 0);
    assert.equal(await admin.getByRole('button', { name: 'Edit Espresso Machine' }).count(), 0);
  });

  test('on a plan without products, shows the API\'s refusal naming the plan', async () => {
    await saveAccount((card) => card.getByLabel('Plan', { exact: true }).selectOption('professional'));
    const refused = await api(admin, 'GET', '/v2/products');
    assert.equal(refused.status, 403);
    assert.match(messageOf(refused), /professional/);
    await open(admin, 'Products');
    await admin.getByRole('alert').filter({ hasText: messageOf(refused) }).waitFor();
    assert.equal(await admin.getByRole('table', { name: 'Products' }).count(), 0, 'no empty catalog under the refusal');
    await screenshot(admin, '86-products-plan-refused');

    await agent.reload();
    await agent.getByRole('region', { name: 'Order' }).getByRole('alert').filter({ hasText: messageOf(refused) }).waitFor();
  });

  test('turns everything back on from Settings, leaving the account as it was', async () => {
    await saveAccount(async (card) => {
      await card.getByLabel('Plan', { exact: true }).selectOption(initialAccount.plan);
      await card.getByLabel('Allow changes to products, orders and line items').check();
    });
    const account = (await api(admin, 'GET', '/v2/accounts/self')).body.data;
    assert.deepEqual([account.plan, account.addons, account.commerce_changes], [initialAccount.plan, initialAccount.addons, initialAccount.commerce_changes]);
    await agent.reload();
    await agent.getByRole('region', { name: 'Order' }).getByRole('button', { name: 'Remove line item Espresso Machine' }).waitFor();
  });
});
