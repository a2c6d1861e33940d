import { useId } from 'react';
import { ADDRESS_KEYS, type Address, type AddressKey } from '../../shared/resources/address.js';

/** An address's keys as its fields are labelled (a sync conflict on one key says "Address: City"). */
export const ADDRESS_KEY_LABELS: Record<AddressKey, string> = { line1: 'Street', city: 'City', postal_code: 'Postal code', state: 'State', country: 'Country' };

export const EMPTY_ADDRESS: Address = { line1: null, city: null, postal_code: null, state: null, country: null };

/** An address as five labelled fields in a group named `legend` (a contact's and a lead's forms); its error under them. */
export function AddressFields({ legend, value, error, onChange }: { legend: string; value: Address; error?: string; onChange(address: Address): void }) {
  const id = useId();
  return (
    // Marked invalid with its error, so a failed save focuses its first field and the error is read with it.
    <fieldset className="address" aria-invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div className="grid">
        {ADDRESS_KEYS.map((key) => (
          <label key={key}>
            {ADDRESS_KEY_LABELS[key]}
            <input type="text" value={value[key] ?? ''} onChange={(e) => onChange({ ...value, [key]: e.target.value || null })} />
          </label>
        ))}
      </div>
      {error && <span id={`${id}-error`} className="field-error" role="alert">{error}</span>}
    </fieldset>
  );
}
