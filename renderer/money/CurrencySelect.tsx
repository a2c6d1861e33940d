import { CURRENCIES, isCurrency } from '../../shared/currencies.js';

/**
 * A currency chosen from the ISO 4217 list the API takes
 * (shared/currencies.ts), shown as "EUR — Euro": a code the hub would refuse
 * cannot be typed. A value from before the list was enforced stays shown, marked.
 */
export function CurrencySelect({ value, onChange, invalid, label = 'Currency', id }: {
  value: string;
  onChange(code: string): void;
  invalid?: boolean;
  label?: string;
  id?: string;
}) {
  return (
    <select id={id} aria-label={label} value={value} aria-invalid={invalid || undefined} onChange={(e) => onChange(e.target.value)}>
      {!isCurrency(value) && <option value={value}>{value} — not an ISO 4217 currency</option>}
      {CURRENCIES.map((c) => <option key={c.code} value={c.code}>{c.code} — {c.name}</option>)}
    </select>
  );
}
