/**
 * Migration 15: the product catalog, orders (at most one per deal) and their
 * line items.
 *
 * Money (prices, cost, line-item price and value) is kept as normalized
 * decimal text ("3599.99", "4"), never a float; so are percents (discounts,
 * variations, limits). A product's prices are one JSON array
 * (`[{"amount": "1599.99", "currency": "USD"}]`), replaced whole whenever
 * sent, as the API shows it, so a desktop replica stores it as it comes.
 *
 * A deleted product stays as a row with `deleted_at` set: it is gone from
 * the catalog (404, not listed, not on devices) while the line items made
 * from it keep pointing at it. Line items copy the product's name, sku,
 * description and price when they are created, so later edits of the
 * product do not change orders already made.
 *
 * An order's `totals` (per currency: the sum of value × quantity, and that
 * sum after the order's discount) are computed exactly in the engine
 * whenever its line items or discount change, and stored as JSON.
 */
export const sql = /* sql */ `
CREATE TABLE products (
  id             INTEGER PRIMARY KEY,
  creator_id     INTEGER REFERENCES users(id),
  name           TEXT NOT NULL,
  description    TEXT,
  sku            TEXT,
  active         INTEGER NOT NULL DEFAULT 1,
  max_discount   TEXT NOT NULL DEFAULT '0',
  max_markup     TEXT NOT NULL DEFAULT '0',
  cost           TEXT,
  cost_currency  TEXT,
  prices         TEXT NOT NULL DEFAULT '[]',
  deleted_at     TEXT,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);
CREATE INDEX products_name ON products(name);

CREATE TABLE orders (
  id          INTEGER PRIMARY KEY,
  deal_id     INTEGER NOT NULL UNIQUE REFERENCES deals(id) ON DELETE CASCADE,
  discount    TEXT NOT NULL DEFAULT '0',
  totals      TEXT NOT NULL DEFAULT '[]',
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);

CREATE TABLE line_items (
  id           INTEGER PRIMARY KEY,
  order_id     INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
  product_id   INTEGER REFERENCES products(id),
  name         TEXT NOT NULL,
  sku          TEXT,
  description  TEXT,
  currency     TEXT NOT NULL,
  price        TEXT NOT NULL,
  variation    TEXT NOT NULL DEFAULT '0',
  value        TEXT NOT NULL,
  quantity     INTEGER NOT NULL DEFAULT 1 CHECK (quantity >= 1),
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);
CREATE INDEX line_items_order ON line_items(order_id);
CREATE INDEX line_items_product ON line_items(product_id);
`;
