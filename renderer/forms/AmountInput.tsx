import type { InputHTMLAttributes } from 'react';
import { exampleAmount } from '../api/refusalWords.js';
import { formatAmount, parseAmount } from './amount.js';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> & {
  /** The text as the rep typed it (or as `amountText` wrote the API's value). */
  value: string;
  onChange(text: string): void;
};

/**
 * An amount typed as people type it ("12,500", "12 500.50", "12.500,50" in
 * Germany): the text stays as typed, and on leaving the field it is written
 * back in the rep's own way once it reads as an amount. The form sends
 * `apiAmount(text)`.
 */
export function AmountInput({ value, onChange, onBlur, ...rest }: Props) {
  return (
    <input {...rest} type="text" inputMode="decimal" autoComplete="off" value={value}
      onChange={(e) => onChange(e.target.value)}
      onBlur={(e) => {
        const parsed = parseAmount(value);
        if (parsed.ok && value.trim() !== '') onChange(formatAmount(parsed.value));
        onBlur?.(e);
      }} />
  );
}
AmountInput.formControl = true as const;

/** The API's decimal as the rep reads it in the field ("12500.5" → "12,500.50"); empty for none. */
export const amountText = (value: string | number | null | undefined): string => (value === null || value === undefined || value === '' ? '' : formatAmount(String(value)));

/**
 * What the API gets for what was typed: its exact decimal text, or, for
 * text that is no amount, the text itself, so the API refuses it by the
 * field in words (a form never guesses a number).
 */
export function apiAmount(text: string): string {
  const parsed = parseAmount(text);
  return parsed.ok ? parsed.value : text.trim();
}

/** A percent as the API takes percents, a number ("12,5" in Germany → 12.5); text that is no number goes as typed, for the API to refuse. */
export function apiPercent(text: string): number | string {
  const parsed = parseAmount(text);
  return parsed.ok ? Number(parsed.value) : text.trim();
}

/** The warning for text that is no amount (empty is none): how to write one, in the rep's own way. */
export function amountWarning(text: string, label = 'the amount'): string | null {
  if (text.trim() === '' || parseAmount(text).ok) return null;
  return `Enter ${label} as a number, such as ${exampleAmount()}.`;
}
