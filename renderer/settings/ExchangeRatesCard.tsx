import { useState, type FormEvent } from 'react';
import type { ExchangeRate } from '../../shared/resources/exchangeRate.js';
import { CURRENCIES, currencyOf } from '../../shared/currencies.js';
import { formatMoney, normalizeRate } from '../../shared/money.js';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import { useSession } from '../session/sessionStore.js';
import { CurrencySelect } from '../money/CurrencySelect.js';
import { useExchangeRates, useRatesStore } from '../money/useExchangeRates.js';
import './exchangeRates.css';

const RATE_HINT = 'A positive number such as 1.0870, with up to 10 decimals.';

/** "25 Nov 2026, 14:05": when a rate was set, in the user's own time. */
const setOn = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

async function reloadRates(): Promise<void> {
  const list = await api.list<ExchangeRate>('/v2/exchange_rates');
  useRatesStore.getState().replace(list.items.map((i) => i.data));
}

/**
 * The account's exchange rates: for each currency, how many units of the
 * account's currency one unit is worth, and when it was set. Totals over
 * several currencies (board, Home, reports) are converted with them. Admins
 * add, change and remove rates; agents read them.
 */
export function ExchangeRatesCard() {
  const { rates, into } = useExchangeRates();
  const admin = useSession((s) => s.user?.role === 'admin');
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const done = (text: string) => setMessage({ text, failed: false });
  const failed = (text: string) => setMessage({ text, failed: true });
  return (
    <section className="card exchange-rates" aria-labelledby="exchange-rates-title">
      <h2 id="exchange-rates-title">Exchange rates</h2>
      <p className="muted">
        How many {currencyName(into)} one unit of each currency is worth. Totals of deals in several currencies are converted with
        them into {into}; amounts in a currency without a rate are shown beside the totals, never counted in.
      </p>
      {rates === null && <p className="muted">Loading…</p>}
      {rates?.length === 0 && <p className="muted">No exchange rates yet{admin ? ': add one below.' : '.'}</p>}
      {rates && rates.length > 0 && (
        <ul className="rate-list" aria-label="Exchange rates">
          {/* Keyed by when it was set too: a rate saved here or synced from elsewhere starts its row afresh. */}
          {rates.map((rate) => <RateRow key={`${rate.currency} ${rate.updated_at}`} rate={rate} into={into} admin={admin} done={done} failed={failed} />)}
        </ul>
      )}
      {admin && rates && <AddRate into={into} taken={new Set(rates.map((r) => r.currency))} done={done} failed={failed} />}
      <p className={message?.failed ? 'form-error' : 'muted'} role="status" aria-live="polite">{message?.text}</p>
    </section>
  );
}

interface RowProps {
  rate: ExchangeRate;
  into: string;
  admin: boolean;
  done(text: string): void;
  failed(text: string): void;
}

/** One rate: "1 EUR = 1.087 USD, set 25 Nov 2026"; for admins an input, Save and Remove. */
function RateRow({ rate, into, admin, done, failed }: RowProps) {
  const [draft, setDraft] = useState(rate.rate);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const label = `Rate of ${rate.currency} in ${into}`;
  const act = async (what: () => Promise<void>, success: string, failure: string) => {
    setBusy(true);
    try {
      await what();
      await reloadRates();
      done(success);
    } catch (err) {
      failed(refusalText(err, failure));
    } finally {
      setBusy(false);
    }
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (normalizeRate(draft) === null) return setError(RATE_HINT);
    setError(null);
    void act(() => api.update(`/v2/exchange_rates/${rate.currency}`, { rate: draft.trim() }), `Saved the rate of ${rate.currency}.`, `The rate of ${rate.currency} could not be saved.`);
  };
  const remove = () => void act(() => api.remove(`/v2/exchange_rates/${rate.currency}`), `Removed the rate of ${rate.currency}.`, `The rate of ${rate.currency} could not be removed.`);
  return (
    <li className="rate-row" aria-label={rate.currency}>
      <span className="rate-currency"><strong>{rate.currency}</strong> <span className="muted">{currencyOf(rate.currency)?.name}</span></span>
      {admin ? (
        <form className="rate-edit" onSubmit={save} noValidate>
          <span className="rate-equation" aria-hidden="true">1 {rate.currency} =</span>
          <input type="text" inputMode="decimal" aria-label={label} value={draft} aria-invalid={Boolean(error)} onChange={(e) => {
            setDraft(e.target.value);
            setError(null);
          }} />
          <span aria-hidden="true">{into}</span>
          <button type="submit" disabled={busy || draft.trim() === rate.rate}>Save</button>
          <button type="button" className="danger" disabled={busy} onClick={remove} aria-label={`Remove the rate of ${rate.currency}`}>Remove</button>
          {error && <span className="field-error" role="alert">{error}</span>}
        </form>
      ) : (
        <span className="rate-value">1 {rate.currency} = <span className="money">{formatMoney(rate.rate, into)}</span></span>
      )}
      <span className="muted rate-set">Set {setOn(rate.set_at)}</span>
    </li>
  );
}

/** An admin adds a rate for a currency that has none (the account's own is always 1). */
function AddRate({ into, taken, done, failed }: { into: string; taken: Set<string>; done(text: string): void; failed(text: string): void }) {
  const first = CURRENCIES.find((c) => c.code !== into && !taken.has(c.code))?.code ?? '';
  const [currency, setCurrency] = useState('');
  const [rate, setRate] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const chosen = currency && !taken.has(currency) && currency !== into ? currency : first;
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (normalizeRate(rate) === null) return setError(RATE_HINT);
    setError(null);
    setBusy(true);
    try {
      await api.update(`/v2/exchange_rates/${chosen}`, { rate: rate.trim() });
      await reloadRates();
      setRate('');
      setCurrency('');
      done(`Added the rate of ${chosen}.`);
    } catch (err) {
      failed(refusalText(err, `The rate of ${chosen} could not be added.`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="rate-add" onSubmit={add} noValidate aria-label="Add an exchange rate">
      <label>
        Currency
        <CurrencySelect value={chosen} onChange={setCurrency} exclude={[into, ...taken]} />
      </label>
      <label>
        1 {chosen} in {into}
        <input type="text" inputMode="decimal" placeholder="1.0000" value={rate} aria-invalid={Boolean(error)} onChange={(e) => {
          setRate(e.target.value);
          setError(null);
        }} />
      </label>
      <button type="submit" className="primary" disabled={busy || !chosen}>Add rate</button>
      {error && <span className="field-error" role="alert">{error}</span>}
    </form>
  );
}

const currencyName = (code: string) => {
  const name = currencyOf(code)?.name;
  return name ? `${code} (${name})` : code;
};
