import { useEffect, useState } from 'react';
import type { Product } from '../../shared/resources/product.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { fetchPages } from '../leads/usePagedList.js';
import { FormField, FormMessage } from '../forms/FormField.js';
import { AmountInput, amountWarning, apiPercent } from '../forms/AmountInput.js';
import { parseAmount } from '../forms/amount.js';
import { formatMoney } from '../deals/money.js';

const PRODUCTS_PER_PAGE = 100;
const MAX_PRODUCT_PAGES = 10;

/** The products a line item can be made from (only active ones), by name. */
function useActiveProducts(): Product[] {
  const [products, setProducts] = useState<Product[]>([]);
  useEffect(() => {
    let live = true;
    fetchPages<Product>('/v2/products', { active: true }, PRODUCTS_PER_PAGE, 1, MAX_PRODUCT_PAGES).then(
      ({ rows }) => live && setProducts(rows.toSorted((a, b) => a.name.localeCompare(b.name))),
      () => live && setProducts([]),
    );
    return () => {
      live = false;
    };
  }, []);
  return products;
}

interface Draft {
  productId: string;
  currency: string;
  quantity: string;
  variation: string;
}

const EMPTY: Draft = { productId: '', currency: '', quantity: '1', variation: '0' };

/**
 * Adds a line item: an active product, one of the currencies it has a price
 * in, a quantity and a variation percent (within the product's limits, which
 * the API checks). The unit price after variation is previewed exactly.
 */
export function LineItemForm({ orderId, onAdded }: { orderId: number; onAdded(): void }) {
  const products = useActiveProducts();
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const product = products.find((p) => String(p.id) === draft.productId) ?? null;
  const price = product?.prices.find((p) => p.currency === draft.currency) ?? null;
  const variation = parseAmount(draft.variation);

  const chooseProduct = (productId: string) => {
    const chosen = products.find((p) => String(p.id) === productId);
    setDraft({ ...draft, productId, currency: chosen?.prices[0]?.currency ?? '' });
  };

  const { saving, errors, submit } = useFormSubmit({ labels: { product_id: 'Product', currency: 'Currency', quantity: 'Quantity', variation: 'Variation %' }, failure: 'The line item could not be added.', stays: true }, async () => {
    await api.create(`/v2/orders/${orderId}/line_items`, {
      product_id: Number(draft.productId),
      currency: draft.currency,
      quantity: Number(draft.quantity),
      // A percent, not money: sent as the API's other percents are, a number (as the rep typed it: "2,5" in Germany).
      variation: apiPercent(draft.variation),
    });
    setDraft(EMPTY);
    onAdded();
  });

  return (
    <form className="line-item-form" aria-label="Add a line item" onSubmit={submit} noValidate>
      <h3>Add a line item</h3>
      <div className="inline-form">
        <FormField label="Product" error={errors.product_id}>
          <select aria-label="Product" value={draft.productId} onChange={(e) => chooseProduct(e.target.value)}>
            <option value="">Choose a product…</option>
            {products.map((p) => <option key={p.id} value={p.id}>{p.sku ? `${p.name} (${p.sku})` : p.name}</option>)}
          </select>
        </FormField>
        <FormField label="Currency" error={errors.currency}>
          <select aria-label="Currency" value={draft.currency} onChange={(e) => setDraft({ ...draft, currency: e.target.value })} disabled={!product}>
            {product?.prices.map((p) => <option key={p.currency} value={p.currency}>{p.currency}</option>)}
          </select>
        </FormField>
        <FormField label="Quantity" error={errors.quantity}>
          <input type="number" min={1} step={1} value={draft.quantity} onChange={(e) => setDraft({ ...draft, quantity: e.target.value })} />
        </FormField>
        <FormField label="Variation %" error={errors.variation} warning={amountWarning(draft.variation, 'the variation')}>
          <AmountInput value={draft.variation} onChange={(text) => setDraft({ ...draft, variation: text })} />
        </FormField>
        <button type="submit" className="primary" disabled={saving || !product}>{saving ? 'Adding…' : 'Add line item'}</button>
      </div>
      {price && variation.ok && (
        <p className="muted">
          Unit price {formatMoney(price.amount, price.currency)}, {draft.variation.trim() || '0'}% variation: the line’s value is worked out by the hub when it is added.
        </p>
      )}
      <FormMessage error={errors._} />
    </form>
  );
}
