import { useState } from 'react';
import { PLANS, PLAN_LIMITS, type Account, type Addon, type Plan } from '../../shared/resources/account.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { capitalized } from '../shell/words.js';
import { useSession } from '../session/sessionStore.js';
import { CurrencySelect } from '../money/CurrencySelect.js';
import { useRatesStore } from '../money/useExchangeRates.js';

interface Draft {
  plan: Plan;
  outboundSequences: boolean;
  commerceChanges: boolean;
}

const draftOf = (account: Account): Draft => ({
  plan: account.plan,
  outboundSequences: account.addons.includes('outbound_sequences'),
  commerceChanges: account.commerce_changes === 'enabled',
});

/**
 * The account's plan, add-ons and the admin switch for products, orders and
 * line items (admins only: the API refuses anyone else). Saving answers the
 * account, which replaces the session's copy so every screen sees the change.
 */
export function AccountCard({ account }: { account: Account }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(account));
  const [saved, setSaved] = useState(false);
  const change = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setSaved(false);
  };

  const { saving, errors, submit } = useFormSubmit({ labels: { plan: 'Plan' }, failure: 'The account could not be saved.', stays: true }, async () => {
    const addons: Addon[] = draft.outboundSequences ? ['outbound_sequences'] : [];
    const updated = await api.update<Account>('/v2/accounts/self', {
      plan: draft.plan, addons, commerce_changes: draft.commerceChanges ? 'enabled' : 'disabled',
    });
    useSession.setState({ account: updated });
    setDraft(draftOf(updated));
    setSaved(true);
  });

  return (
    <>
    <AccountCurrencyForm account={account} />
    <form className="card account-settings" aria-label="Plan and features" onSubmit={submit} noValidate>
      <h2>Plan and features</h2>
      <div className={`field${errors.plan ? ' invalid' : ''}`}>
        <label>
          Plan
          <select aria-label="Plan" value={draft.plan} onChange={(e) => change({ plan: e.target.value as Plan })} aria-invalid={Boolean(errors.plan)}>
            {PLANS.map((p) => <option key={p} value={p}>{planLabel(p)}</option>)}
          </select>
        </label>
        {errors.plan && <span className="field-error" role="alert">{errors.plan}</span>}
      </div>
      {!PLAN_LIMITS[draft.plan].commerce && <p className="muted">Products and orders need the enterprise plan or above.</p>}
      <fieldset className="choice">
        <legend>Add-ons</legend>
        <label className="check">
          <input type="checkbox" checked={draft.outboundSequences} onChange={(e) => change({ outboundSequences: e.target.checked })} />
          Outbound sequences
        </label>
      </fieldset>
      <label className="check switch">
        <input type="checkbox" role="switch" checked={draft.commerceChanges} onChange={(e) => change({ commerceChanges: e.target.checked })} />
        Allow changes to products, orders and line items
      </label>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save plan and features'}</button>
        {saved && <span className="muted" role="status">Saved.</span>}
      </div>
    </form>
    </>
  );
}

/**
 * The account's currency, chosen from the ISO 4217 list: every converted
 * total is in it. The exchange rates say how much of it each other currency
 * is worth, so changing it clears them (the hub does; this says so first).
 */
function AccountCurrencyForm({ account }: { account: Account }) {
  const [currency, setCurrency] = useState(account.currency);
  const [saved, setSaved] = useState(false);
  const rateCount = useRatesStore((s) => s.rates?.length ?? 0);
  const { saving, errors, submit } = useFormSubmit({ labels: { currency: 'Currency' }, failure: 'The currency could not be saved.', stays: true }, async () => {
    const updated = await api.update<Account>('/v2/accounts/self', { currency });
    useSession.setState({ account: updated });
    await useRatesStore.getState().load();
    setSaved(true);
  });
  const changing = currency !== account.currency;
  return (
    <form className="card account-settings" aria-label="Account currency" onSubmit={submit} noValidate>
      <h2>Currency</h2>
      <p className="muted">Totals on the board, on Home and in reports are converted into this currency.</p>
      <div className={`field${errors.currency ? ' invalid' : ''}`}>
        <label>
          Account currency
          <CurrencySelect label="Account currency" value={currency} invalid={Boolean(errors.currency)} onChange={(code) => {
            setCurrency(code);
            setSaved(false);
          }} />
        </label>
        {errors.currency && <span className="field-error" role="alert">{errors.currency}</span>}
      </div>
      {changing && rateCount > 0 && (
        <p className="form-warning" role="note">
          Changing the currency removes the {rateCount} exchange {rateCount === 1 ? 'rate' : 'rates'}: they say what each currency is worth in {account.currency}.
        </p>
      )}
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={saving || !changing}>{saving ? 'Saving…' : 'Save currency'}</button>
        {saved && <span className="muted" role="status">Saved.</span>}
      </div>
    </form>
  );
}

/** "enterprise" → "Enterprise (products and orders)": the plan names are the API's, capitalized. */
function planLabel(plan: Plan): string {
  const name = capitalized(plan);
  return PLAN_LIMITS[plan].commerce ? `${name} (products and orders)` : name;
}
