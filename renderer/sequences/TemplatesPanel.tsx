import { useState } from 'react';
import { api } from '../api/client.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { TemplateForm } from './TemplateForm.js';
import { ListCount } from '../lists/ListCount.js';
import type { EmailTemplate } from '../../shared/resources/sequence.js';
import { refusalText } from '../api/formErrors.js';
import { askToConfirm } from '../shell/ConfirmDialog.js';

/** Null: no form open; 'new': creating; a template: editing it. */
type Editing = null | 'new' | EmailTemplate;

/** The account's email templates: everyone reads them, admins add, edit and delete them. */
export function TemplatesPanel({ canEdit }: { canEdit: boolean }) {
  const list = usePagedList<EmailTemplate>('/v2/email_templates', { sort_by: 'name' });
  useRefreshOnSync(list.refresh);
  const [editing, setEditing] = useState<Editing>(null);
  const [actionError, setActionError] = useState<string | null>(null);

  const saved = () => {
    setEditing(null);
    list.refresh();
  };
  const remove = async (template: EmailTemplate) => {
    if (!(await askToConfirm({ title: `Delete the template ${template.name}?`, confirm: 'Delete' }))) return;
    try {
      await api.remove(`/v2/email_templates/${template.id}`);
      setActionError(null);
      list.refresh();
    } catch (err) {
      setActionError(refusalText(err, 'The template could not be deleted.'));
    }
  };

  return (
    <section className="card templates-panel" aria-label="Email templates">
      <header className="panel-header">
        <h2>Email templates</h2>
        {list.total ? <ListCount shown={list.rows.length} total={list.total} /> : null}
        {canEdit && editing === null && <button type="button" onClick={() => setEditing('new')}>New template</button>}
      </header>
      {editing !== null && (
        <TemplateForm key={editing === 'new' ? 'new' : editing.id} template={editing === 'new' ? null : editing} onSaved={saved} onCancel={() => setEditing(null)} />
      )}
      {actionError && <p className="form-error" role="alert">{actionError}</p>}
      {list.error && <p className="form-error" role="alert">{list.error}</p>}
      {!list.loading && list.rows.length === 0 && !list.error && <p className="empty">No templates yet.</p>}
      <ul className="plain-list">
        {list.rows.map((template) => (
          <li key={template.id} className="template-row" aria-label={template.name}>
            <div>
              <strong>{template.name}</strong>
              <div className="muted">Subject: {template.subject}</div>
            </div>
            {canEdit && (
              <div className="row-actions">
                <button type="button" aria-label={`Edit template ${template.name}`} onClick={() => setEditing(template)}>Edit</button>
                <button type="button" className="danger" aria-label={`Delete template ${template.name}`} onClick={() => void remove(template)}>Delete</button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {list.hasMore && <button type="button" onClick={list.loadMore} disabled={list.loading}>{list.loading ? 'Loading…' : 'Load more'}</button>}
    </section>
  );
}
