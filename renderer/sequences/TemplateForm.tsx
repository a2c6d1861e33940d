import { useState } from 'react';
import { api } from '../api/client.js';
import { changedFields } from '../api/changedFields.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormField } from '../leads/FormField.js';
import type { EmailTemplate } from '../../shared/resources/sequence.js';

interface Draft {
  name: string;
  subject: string;
  body: string;
}

const MERGE_TAG_HINT = 'Merge tags such as {{contact.first_name}}, {{lead.last_name}} or {{user.name}} are filled in when the email is sent; a tag that is unknown or empty for a recipient stops the step until it is fixed.';

const draftOf = (template: EmailTemplate | null): Draft => ({ name: template?.name ?? '', subject: template?.subject ?? '', body: template?.body ?? '' });

/**
 * Create or edit an email template (admins); an edit sends only the fields
 * changed. The API's field errors show by their fields.
 */
export function TemplateForm({ template, onSaved, onCancel }: { template: EmailTemplate | null; onSaved(): void; onCancel(): void }) {
  const [initial] = useState(() => draftOf(template));
  const [draft, setDraft] = useState<Draft>(initial);
  const change = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const title = template ? `Edit template ${template.name}` : 'New email template';

  /** Creates the template, or sends the fields the user changed; with nothing changed, nothing is sent. */
  const save = async () => {
    if (!template) {
      await api.create('/v2/email_templates', draft);
      return;
    }
    const changes = changedFields(initial, draft);
    if (Object.keys(changes).length > 0) await api.update(`/v2/email_templates/${template.id}`, changes);
  };

  const { saving, errors, submit } = useFormSubmit({ labels: { name: 'Template name', subject: 'Subject', body: 'Body' }, failure: 'The template could not be saved.' }, async () => {
    await save();
    onSaved();
  });

  return (
    <form className="card template-form" aria-label={title} onSubmit={submit} noValidate>
      <h3>{title}</h3>
      <FormField label="Template name" error={errors.name}>
        <input type="text" value={draft.name} onChange={(e) => change({ name: e.target.value })} aria-invalid={Boolean(errors.name)} />
      </FormField>
      <FormField label="Subject" error={errors.subject}>
        <input type="text" value={draft.subject} onChange={(e) => change({ subject: e.target.value })} aria-invalid={Boolean(errors.subject)} />
      </FormField>
      <FormField label="Body" error={errors.body}>
        <textarea rows={6} value={draft.body} onChange={(e) => change({ body: e.target.value })} aria-invalid={Boolean(errors.body)} />
      </FormField>
      <p className="muted">{MERGE_TAG_HINT}</p>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save template'}</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
