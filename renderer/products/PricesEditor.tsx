import { CurrencySelect } from '../money/CurrencySelect.js';
import { AmountInput } from '../forms/AmountInput.js';

export interface PriceDraft {
  amount: string;
  currency: string;
}

/**
 * A product's prices as rows of amount (typed as people type amounts) and
 * currency. The API replaces the whole list whenever prices are sent, so
 * the rows here are the list.
 */
export function PricesEditor({ prices, onChange, error }: { prices: PriceDraft[]; onChange(prices: PriceDraft[]): void; error?: string }) {
  const setRow = (index: number, patch: Partial<PriceDraft>) => onChange(prices.map((p, i) => (i === index ? { ...p, ...patch } : p)));
  return (
    <fieldset className={`prices-editor${error ? ' invalid' : ''}`}>
      <legend>Prices *</legend>
      {prices.length === 0 && <p className="muted">No prices yet: a product needs at least one.</p>}
      <ul className="plain-list">
        {prices.map((price, index) => (
          <li key={index} className="inline-form price-row">
            <label>
              Amount
              <AmountInput aria-label={`Price ${index + 1} amount`} placeholder="0.00" value={price.amount}
                onChange={(amount) => setRow(index, { amount })} />
            </label>
            <label>
              Currency
              <CurrencySelect label={`Price ${index + 1} currency`} value={price.currency} onChange={(currency) => setRow(index, { currency })} />
            </label>
            <button type="button" className="link" aria-label={`Remove price ${index + 1}`} onClick={() => onChange(prices.filter((_, i) => i !== index))}>Remove</button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => onChange([...prices, { amount: '', currency: '' }])}>Add price</button>
      {error && <span className="field-error" role="alert">{error}</span>}
    </fieldset>
  );
}
