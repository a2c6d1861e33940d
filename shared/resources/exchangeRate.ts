/** An exchange rate (GET /v2/exchange_rates): 1 unit of `currency` is worth `rate` units of the account's currency. */
export interface ExchangeRate {
  id: number;
  currency: string;
  /** A positive decimal string ("1.087"). */
  rate: string;
  /** When an admin last set it. */
  set_at: string;
  set_by_id: number | null;
  created_at: string;
  updated_at: string;
}
