/**
 * Migration 28: exchange rates (resources/exchangeRates.ts).
 *
 * One row per currency an admin gave a rate: how many units of the account's
 * currency one unit of it is worth, as normalized decimal text ("1.087"),
 * when it was set and by whom. Totals over deals in several currencies are
 * converted with them (shared/money.ts). Rows sync to devices like other
 * records (type `exchange_rate`), so a replica converts offline; the integer
 * id is what the change log and devices key them by, the currency is unique.
 */
export const sql = /* sql */ `
CREATE TABLE exchange_rates (
  id          INTEGER PRIMARY KEY,
  currency    TEXT NOT NULL UNIQUE,
  rate        TEXT NOT NULL,
  set_at      TEXT NOT NULL,
  set_by_id   INTEGER,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
`;
