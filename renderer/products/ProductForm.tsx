import { CurrencySelect } from '../money/CurrencySelect.js';
import { useState } from 'react';
import type { Product } from '../../shared/resources/product.js';
import { api } from '../api/client.js';
import { changedFields } from '../api/changedFields.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormField, FormMessage } from '../forms/FormField.js';
import { AmountInput, amountText, amountWarning, apiAmount, apiPercent } from '../forms/AmountInput.js';
import { PricesEditor, type PriceDraft } from './PricesEditor.js';

interface Draft {
  name: string;
  description: string;
  sku: string;
  active: boolean;
  max_discount: string;
  max_markup: string;
  cost: string;
  cost_currency: string;
  prices: PriceDraft[];
}

const LABELS = {
  name: 'Name', sku: 'SKU', max_discount: 'Max discount %', max_markup: 'Max markup %', cost: 'Cost', cost_currency: 'Cost currency',
  description: 'Description', active: 'Active', prices: 'Prices',
};

function draftOf(product: Product | null): Draft {
  return {
    name: product?.name ?? '',
    description: product?.description ?? '',
    sku: product?.sku ?? '',
    active: product?.active ?? true,
    max_discount: amountText(product?.max_discount),
    max_markup: amountText(product?.max_markup),
    cost: amountText(product?.cost),
    cost_currency: product?.cost_currency ?? '',
    prices: product?.prices.map((p) => ({ amount: amountText(p.amount), currency: p.currency })) ?? [{ amount: '', currency: '' }],
  };
}

/** Empty text is no value; percents are numbers (not money); money stays a decimal string; both read as the rep types them. */
const optionalText = (text: string) => text.trim() || null;
const optionalPercent = (text: string) => (text.trim() === '' ? null : apiPercent(text));
const optionalAmount = (text: string) => (text.trim() === '' ? null : apiAmount(text));

function payloadOf(draft: Draft): Record<string, unknown> {
  return {
    name: draft.name.trim(),
    description: optionalText(draft.description),
    sku: optionalText(draft.sku),
    active: draft.active,
    max_discount: optionalPercent(draft.max_discount),
    max_markup: optionalPercent(draft.max_markup),
    cost: optionalAmount(draft.cost),
    cost_currency: optionalText(draft.cost_currency),
    // Rows left entirely blank are dropped; half-filled ones go to the API, which says what is wrong.
    prices: draft.prices.filter((p) => p.amount.trim() || p.currency.trim()).map((p) => ({ amount: apiAmount(p.amount), currency: p.currency.trim() })),
  };
}

/**
 * Create or edit a product (admins only; only they see cost). An edit sends
 * only the fields changed; prices, once changed, are sent whole and replace
 * the product's prices entirely. The API's field errors show by their
 * fields, its message below the form.
 */
export function ProductForm({ product, onSaved, onCancel }: { product: Product | null; onSaved(product: Product): void; onCancel(): void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(product));
  // The payload of the product as the form opened it: an edit sends only what differs from it.
  const [initialPayload] = useState(() => payloadOf(draftOf(product)));
  const change = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const title = product ? `Edit ${product.name}` : 'New product';

  /** Creates the product, or sends the fields the user changed; with nothing changed, nothing is sent. */
  const save = async (): Promise<Product> => {
    if (!product) return api.create<Product>('/v2/products', payloadOf(draft));
    const changes = changedFields(initialPayload, payloadOf(draft));
    return Object.keys(changes).length > 0 ? api.update<Product>(`/v2/products/${product.id}`, changes) : product;
  };

  const { saving, errors, submit } = useFormSubmit({ labels: LABELS, failure: 'The product could not be saved.' }, async () => {
    onSaved(await save());
  });

  return (
    <form className="card product-form" aria-label={title} onSubmit={submit} noValidate>
      <h2>{title}</h2>
      <div className="grid">
        <FormField label="Name *" error={errors.name}>
          <input type="text" value={draft.name} onChange={(e) => change({ name: e.target.value })} aria-invalid={Boolean(errors.name)} />
        </FormField>
        <FormField label="SKU" error={errors.sku}>
          <input type="text" value={draft.sku} onChange={(e) => change({ sku: e.target.value })} />
        </FormField>
        <FormField label="Max discount %" error={errors.max_discount} warning={amountWarning(draft.max_discount, 'the max discount')}>
          <AmountInput value={draft.max_discount} onChange={(max_discount) => change({ max_discount })} />
        </FormField>
        <FormField label="Max markup %" error={errors.max_markup} warning={amountWarning(draft.max_markup, 'the max markup')}>
          <AmountInput value={draft.max_markup} onChange={(max_markup) => change({ max_markup })} />
        </FormField>
        <FormField label="Cost" error={errors.cost} warning={amountWarning(draft.cost, 'the cost')}>
          <AmountInput placeholder="0.00" value={draft.cost} onChange={(cost) => change({ cost })} />
        </FormField>
        <FormField label="Cost currency" error={errors.cost_currency}>
          <CurrencySelect label="Cost currency" empty="No cost currency" optional value={draft.cost_currency} onChange={(cost_currency) => change({ cost_currency })} />
        </FormField>
      </div>
      <FormField label="Description" error={errors.description}>
        <textarea rows={2} value={draft.description} onChange={(e) => change({ description: e.target.value })} />
      </FormField>
      <label className="check">
        <input type="checkbox" checked={draft.active} onChange={(e) => change({ active: e.target.checked })} />
        Active (can be added to orders)
      </label>
      <PricesEditor prices={draft.prices} onChange={(prices) => change({ prices })} error={errors.prices} />
      <FormMessage error={errors._} />
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save product'}</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
