/** An order's sums in one currency (an Outpost extension): decimal strings, computed exactly. */
export interface OrderTotal {
  currency: string;
  /** Sum of value × quantity of the order's line items in this currency. */
  subtotal: string;
  /** The subtotal after the order's discount, rounded half up to the cent. */
  total: string;
}

/** The order of a deal (`meta.type` = `order`): at most one per deal. */
export interface Order {
  id: number;
  /** Fixed after creation. */
  deal_id: number;
  /** Percent, 0–100, on the whole order. */
  discount: number;
  /** Per currency of its line items, by currency code (extension). */
  totals: OrderTotal[];
  created_at: string;
  updated_at: string;
}

/** A line of an order (`meta.type` = `line_item`); name, sku, description and price are copied from the product. */
export interface LineItem {
  id: number;
  order_id: number;
  /** The product it was made from (given on create only). */
  product_id: number;
  name: string;
  sku: string | null;
  description: string | null;
  currency: string;
  /** The product's price in `currency` when the line item was made. */
  price: string;
  /** Percent: positive is a markup, negative a discount. */
  variation: number;
  /** Per unit: price × (1 + variation/100), rounded half up to the cent. */
  value: string;
  quantity: number;
  created_at: string;
  updated_at: string;
}
