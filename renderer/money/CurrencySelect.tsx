import { CURRENCIES, isCurrency } from '../../shared/currencies.js';

/**
 * A currency chosen from the ISO 4217 list the API takes
 * (shared/currencies.ts), shown as "EUR — Euro": a code the hub would refuse
 * cannot be typed. A value from before the list was enforced stays shown, marked.
 */
export function CurrencySelect({ value, onChange, invalid, label = 'Currency', exclude = [], empty = 'Choose a currency', optional = false }: {
  value: string;
  onChange(code: string): void;
  invalid?: boolean;
  label?: string;
  /** Codes not offered (a rate's select leaves out the account's own currency and those with a rate). */
  exclude?: readonly string[];
  /** What an empty value reads as (a new price row, a product without a cost). */
  empty?: string;
  /** Whether "none" stays a choice once a currency is picked (a product's cost currency). */
  optional?: boolean;
}) {
  return (
    <select aria-label={label} value={value} aria-invalid={invalid || undefined} onChange={(e) => onChange(e.target.value)}>
      {(value === '' || optional) && <option value="">{empty}</option>}
      {value !== '' && !isCurrency(value) && <option value={value}>{value} — not an ISO 4217 currency</option>}
      {CURRENCIES.filter((c) => c.code === value || !exclude.includes(c.code)).map((c) => <option key={c.code} value={c.code}>{c.code} — {c.name}</option>)}
    </select>
  );
}
