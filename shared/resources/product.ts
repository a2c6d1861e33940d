/** One price of a product: a decimal amount as a string ("1599.99"), in an ISO 4217 currency. */
export interface ProductPrice {
  amount: string;
  currency: string;
}

/** A product of the catalog (`meta.type` = `product`). */
export interface Product {
  id: number;
  creator_id: number | null;
  name: string;
  description: string | null;
  sku: string | null;
  /** Line items can only be made from active products. */
  active: boolean;
  /** Percents: a line item's variation lies within −max_discount … +max_markup. */
  max_discount: number;
  max_markup: number;
  /** Decimal string; null for anyone but account administrators. */
  cost: string | null;
  /** ISO 4217; null for anyone but account administrators. */
  cost_currency: string | null;
  /** One price per currency; replaced whole whenever sent. */
  prices: ProductPrice[];
  created_at: string;
  updated_at: string;
}
