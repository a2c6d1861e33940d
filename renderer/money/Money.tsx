import { formatMoney, isMixed, type ConvertedTotal, type RateTable } from '../../shared/money.js';
import './money.css';

/** An amount as every screen shows it, never broken across lines ("CA$46,650.00" stays whole). */
export function Money({ value, currency }: { value: string; currency: string }) {
  return <span className="money">{formatMoney(value, currency)}</span>;
}

/** "$1,000.00 + €500.00": the originals of a total, for a title or a screen reader. */
export function originalsText(total: ConvertedTotal): string {
  return total.originals.map((o) => formatMoney(o.amount, o.currency)).join(' + ');
}

/**
 * What a converted total leaves out, in words: "+ CHF 1,200.00 without an
 * exchange rate" after a total, or "CHF 1,200.00 without an exchange rate"
 * when nothing could be converted.
 */
export function unconvertedText(total: ConvertedTotal, afterTotal: boolean): string {
  const amounts = total.unconverted.map((u) => formatMoney(u.amount, u.currency)).join(' + ');
  return `${afterTotal ? '+ ' : ''}${amounts} without an exchange rate`;
}

/**
 * A total converted into the account's currency. Where it was made of other
 * currencies, the total is a disclosure (click, Enter or Space) listing the
 * original amounts, each with the rate it was converted at, and its title
 * says them on hover. Amounts in a currency without a rate are never counted
 * in: they follow the total, in their own currency, saying so.
 */
export function ConvertedMoney({ total, rates, className }: { total: ConvertedTotal; rates: RateTable; className?: string }) {
  const converted = total.originals.length === 0 || total.unconverted.length < total.originals.length;
  const main = converted ? <Money value={total.total} currency={total.currency} /> : null;
  return (
    <span className={`converted-money${className ? ` ${className}` : ''}`}>
      {main && isMixed(total) ? (
        <details className="money-breakdown">
          <summary title={`In ${total.currency}, from ${originalsText(total)}`}>{main}</summary>
          <ul aria-label="Original amounts">
            {total.originals.map((o) => (
              <li key={o.currency}>
                <Money value={o.amount} currency={o.currency} />
                <span className="muted"> {rateNote(o.currency, total.currency, rates)}</span>
              </li>
            ))}
          </ul>
        </details>
      ) : main}
      {total.unconverted.length > 0 && <span className="money-unconverted">{converted ? ' ' : ''}{unconvertedText(total, converted)}</span>}
    </span>
  );
}

function rateNote(currency: string, into: string, rates: RateTable): string {
  if (currency === into) return `(${into})`;
  const rate = rates.get(currency);
  return rate === undefined ? '(no exchange rate: not in the total)' : `(× ${rate} ${into})`;
}
