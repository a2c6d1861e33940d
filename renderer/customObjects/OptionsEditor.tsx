export interface OptionDraft {
  name: string;
  value: string;
}

/** "Blue / green" → "blue_green": the value an option gets when none is typed (values are what the API stores). */
export function valueFromName(name: string): string {
  return name.trim().toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

/** Rows left blank are dropped; a missing value comes from the name. */
export function optionsPayload(options: readonly OptionDraft[]): { name: string; value: string }[] {
  return options
    .filter((o) => o.name.trim() || o.value.trim())
    .map((o) => ({ name: o.name.trim(), value: o.value.trim() || valueFromName(o.name) }));
}

/**
 * The choices of a drop-down or multi-select field: what people see (name)
 * and what records store (value), in order.
 */
export function OptionsEditor({ options, onChange, error }: { options: OptionDraft[]; onChange(options: OptionDraft[]): void; error?: string }) {
  const setRow = (index: number, patch: Partial<OptionDraft>) => onChange(options.map((o, i) => (i === index ? { ...o, ...patch } : o)));
  return (
    <fieldset className={`options-editor${error ? ' invalid' : ''}`}>
      <legend>Choices *</legend>
      {options.length === 0 && <p className="muted">No choices yet: add at least one.</p>}
      <ul className="plain-list">
        {options.map((option, index) => (
          <li key={index} className="inline-form option-row">
            <label>
              Name
              <input type="text" aria-label={`Choice ${index + 1} name`} value={option.name} onChange={(e) => setRow(index, { name: e.target.value })} />
            </label>
            <label>
              Value
              <input type="text" aria-label={`Choice ${index + 1} value`} placeholder={valueFromName(option.name) || 'from the name'} value={option.value}
                spellCheck={false} onChange={(e) => setRow(index, { value: e.target.value })} />
            </label>
            <button type="button" className="link" aria-label={`Remove choice ${index + 1}`} onClick={() => onChange(options.filter((_, i) => i !== index))}>Remove</button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => onChange([...options, { name: '', value: '' }])}>Add choice</button>
      {error && <span className="field-error" role="alert">{error}</span>}
    </fieldset>
  );
}
