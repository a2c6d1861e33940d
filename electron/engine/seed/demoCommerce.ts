import { faker } from '@faker-js/faker';
import type { Engine } from '../engine.js';
import { PLAN_LIMITS, PLANS } from '../../../shared/resources/account.js';
import type { Order } from '../../../shared/resources/order.js';
import type { ProductPrice } from '../../../shared/resources/product.js';
import { demoCurrencies, priceIn, runSeed, type DemoUsers } from './demoSetup.js';
import { CATALOG } from './phrases.js';

export interface CommerceSummary {
  /** Products added to the catalog (the demo catalog's products it did not have). */
  products: number;
  /** The currencies the demo catalog has prices in. */
  currencies: string[];
  orders: number;
  lineItems: number;
}

/**
 * Why products and orders cannot be seeded on this account, or null when
 * they can. `seed` does not change the plan or the switch an admin chose:
 * it says what to run instead.
 */
export function commerceRefusal(engine: Engine): string | null {
  const { plan, commerce_changes: changes } = JSON.parse(engine.accounts.json()) as { plan: (typeof PLANS)[number]; commerce_changes: string };
  if (!PLAN_LIMITS[plan].commerce) {
    const plans = PLANS.filter((p) => PLAN_LIMITS[p].commerce);
    return `the account is on the ${plan} plan and they need ${plans.join(' or ')} (outpost account set --plan ${plans[0]}, then outpost seed --orders N)`;
  }
  if (changes === 'disabled') return 'an admin turned off changes to them (outpost account set --commerce-changes enabled, then outpost seed --orders N)';
  return null;
}

interface Sellable {
  id: number;
  currencies: Set<string>;
  service: boolean;
  maxDiscount: number;
  maxMarkup: number;
}

/**
 * The demo catalog (products created through the products service where
 * its SKU is not in the catalog yet), then up to `count` orders through the
 * orders and line items services on deals that have none, in late stages
 * (quote, closure) or won: one to four line items in the deal's currency, at
 * times a variation within the product's limits, at times a discount on the
 * order; the deal's value becomes the order's total. One transaction.
 */
export function seedCommerce(engine: Engine, count: number, users: DemoUsers, seed = 17): CommerceSummary {
  const currencies = demoCurrencies(engine);
  const summary: CommerceSummary = { products: 0, currencies, orders: 0, lineItems: 0 };
  engine.db.transaction(() => {
    faker.seed(runSeed(engine, 'orders', seed));
    summary.products = ensureCatalog(engine, currencies, users);
    if (count === 0) return;
    const products = sellable(engine);
    const actors = new Map(users.all.map((actor) => [actor.userId, actor]));
    const deals = engine.db.prepare(`SELECT d.id, d.currency, d.owner_id FROM deals d JOIN stages s ON s.id = d.stage_id
      WHERE (s.category = 'won' OR (s.category = 'in_progress' AND s.likelihood >= 50)) AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.deal_id = d.id)
      ORDER BY d.id`).all() as { id: number; currency: string; owner_id: number }[];
    for (const deal of faker.helpers.shuffle(deals)) {
      if (summary.orders === count) break;
      const offered = products.filter((p) => p.currencies.has(deal.currency));
      if (offered.length === 0) continue;
      // The deal's owner builds the order (an owner since deactivated: an admin).
      const actor = actors.get(deal.owner_id) ?? users.admin;
      const discount = faker.helpers.weightedArrayElement([{ value: 0, weight: 6 }, { value: 5, weight: 2 }, { value: 10, weight: 1 }, { value: 12.5, weight: 1 }]);
      const orderId = engine.orders.create({ deal_id: deal.id, discount }, actor);
      for (const product of faker.helpers.arrayElements(offered, { min: 1, max: 4 })) {
        engine.lineItems.create(orderId, {
          product_id: product.id, currency: deal.currency,
          quantity: product.service ? faker.number.int({ min: 1, max: 3 }) : faker.helpers.arrayElement([1, 2, 4, 5, 6, 10, 12, 20]),
          variation: variationWithin(product),
        }, actor);
        summary.lineItems++;
      }
      const order = JSON.parse(engine.orders.json(orderId)) as Order;
      const total = order.totals.find((t) => t.currency === deal.currency);
      if (total) engine.deals.update(deal.id, { value: total.total }, actor);
      summary.orders++;
    }
  }).immediate();
  return summary;
}

/** Creates the demo products the catalog does not have (by SKU); returns how many. */
function ensureCatalog(engine: Engine, currencies: string[], users: DemoUsers): number {
  const exists = engine.db.prepare('SELECT 1 FROM products WHERE sku = ? AND deleted_at IS NULL');
  let created = 0;
  CATALOG.forEach((product, i) => {
    if (exists.get(product.sku) !== undefined) return;
    // Most products have a price in every currency; every fifth in two only (a line item needs one in its order's currency).
    const priced = i % 5 === 4 ? currencies.slice(0, 2) : currencies;
    const prices: ProductPrice[] = priced.map((currency) => ({ currency, amount: priceIn(product.usd, currency) }));
    engine.products.create({
      name: product.name, sku: product.sku, description: product.description, prices,
      cost: (Math.round(product.usd * 0.6 * 100) / 100).toFixed(2), cost_currency: 'USD',
      max_discount: product.service ? 10 : 15, max_markup: 20,
    }, users.admin);
    created++;
  });
  return created;
}

/** The active products of the catalog (the demo ones and any other), with what a line item needs to know. */
function sellable(engine: Engine): Sellable[] {
  const services = new Set(CATALOG.filter((p) => p.service).map((p) => p.sku));
  const rows = engine.db.prepare('SELECT id, sku, prices, max_discount, max_markup FROM products WHERE active = 1 AND deleted_at IS NULL ORDER BY id')
    .all() as { id: number; sku: string | null; prices: string; max_discount: string; max_markup: string }[];
  return rows.map((row) => ({
    id: row.id,
    currencies: new Set((JSON.parse(row.prices) as ProductPrice[]).map((p) => p.currency)),
    service: row.sku !== null && services.has(row.sku),
    maxDiscount: Number(row.max_discount),
    maxMarkup: Number(row.max_markup),
  }));
}

/** Mostly list price; at times a discount or a markup the product allows. */
function variationWithin(product: Sellable): number {
  const roll = faker.number.int(9);
  if (roll < 2 && product.maxDiscount > 0) return -Math.min(product.maxDiscount, faker.helpers.arrayElement([5, 10]));
  if (roll === 2 && product.maxMarkup > 0) return Math.min(product.maxMarkup, 5);
  return 0;
}
