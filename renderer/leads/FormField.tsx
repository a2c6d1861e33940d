import type { ReactNode } from 'react';

/** A labelled form control with the API's error for it underneath (the lead and deal forms share it). */
export function FormField({ label, error, children }: { label: string; error?: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' invalid' : ''}`}>
      <label>
        {label}
        {children}
      </label>
      {error && <span className="field-error" role="alert">{error}</span>}
    </div>
  );
}

/** The end of a record form: the API's message, Save and Cancel. */
export function FormActions({ error, saving }: { error?: string; saving: boolean }) {
  return (
    <>
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save'}</button>
        <button type="button" onClick={() => window.history.back()}>Cancel</button>
      </div>
    </>
  );
}
