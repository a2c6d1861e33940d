import { useState } from 'react';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useRouter } from '../router/routerStore.js';
import { Timeline } from '../timeline/Timeline.js';
import { TagsEditor } from '../tags/TagsEditor.js';
import { CollaboratorsPanel } from '../collaborators/CollaboratorsPanel.js';
import { useUsers } from '../collaborators/useUsers.js';
import { ConvertDialog } from './ConvertDialog.js';
import { ConversionSummary } from './ConversionSummary.js';
import { DetailRow, formatAddress, formatCustomValue, RecordProblemMessage } from './Details.js';
import { useNamedOptions } from './useNamedOptions.js';
import { RecordEnrollments } from '../enrollments/RecordEnrollments.js';
import { useRecord } from './useRecord.js';
import { CONVERTED_LEAD_STATUS, leadDisplayName, type Lead } from '../../shared/resources/lead.js';
import { ContactFieldRows } from '../records/ContactFieldRows.js';
import { ConflictPanel } from '../sync/ConflictPanel.js';

/** One lead: its details, tags, collaborators and activity, and the way to convert it. */
export function LeadPage({ id }: { id: number }) {
  const navigate = useRouter((s) => s.navigate);
  const { record: lead, problem, setRecord, reload } = useRecord<Lead>(`/v2/leads/${id}`, { type: 'lead', id });
  const users = useUsers();
  const sources = useNamedOptions('/v2/lead_sources');
  const [converting, setConverting] = useState(false);

  if (problem) return <RecordProblemMessage problem={problem} noun="lead" listPath="/leads" />;
  if (!lead) return <section className="screen"><p className="muted">Loading…</p></section>;

  const remove = async () => {
    if (!window.confirm(`Delete ${leadDisplayName(lead)}? This cannot be undone.`)) return;
    await api.remove(`/v2/leads/${id}`);
    navigate('/leads');
  };

  const owner = users.find((u) => u.id === lead.owner_id)?.name;
  const source = sources.find((s) => s.id === lead.source_id)?.name;
  return (
    <section className="screen record-page lead-page">
      <header className="screen-header">
        <div>
          <p className="muted">Lead{lead.organization_name && lead.last_name ? ` · ${lead.organization_name}` : ''}</p>
          <h1>{leadDisplayName(lead) || '(no name)'}</h1>
          {lead.status && <span className="badge">{lead.status}</span>}
        </div>
        <div className="actions">
          {lead.status !== CONVERTED_LEAD_STATUS && <button type="button" className="primary" onClick={() => setConverting(true)}>Convert</button>}
          <Link to={`/leads/${id}/edit`} className="button">Edit</Link>
          <button type="button" className="danger" onClick={remove}>Delete</button>
        </div>
      </header>
      <ConflictPanel type="lead" id={id} onResolved={reload} />
      {converting && <ConvertDialog lead={lead} onClose={() => setConverting(false)} />}
      <ConversionSummary query={{ lead_id: id }} />
      <div className="columns">
        <dl className="card details" aria-label="Details">
          {lead.first_name && <DetailRow label="First name">{lead.first_name}</DetailRow>}
          {lead.last_name && <DetailRow label="Last name">{lead.last_name}</DetailRow>}
          {lead.organization_name && <DetailRow label="Organization">{lead.organization_name}</DetailRow>}
          {owner && <DetailRow label="Owner">{owner}</DetailRow>}
          {source && <DetailRow label="Source">{source}</DetailRow>}
          <ContactFieldRows record={lead} />
          <DetailRow label="Address">{formatAddress(lead.address) || '—'}</DetailRow>
          {Object.entries(lead.custom_fields).map(([name, value]) => <DetailRow key={name} label={name}>{formatCustomValue(value)}</DetailRow>)}
        </dl>
        <div className="side">
          <TagsEditor resourceType="lead" path={`/v2/leads/${id}`} tags={lead.tags} onSaved={setRecord} />
          <CollaboratorsPanel resourceType="lead" resourceId={id} />
          <RecordEnrollments resourceType="lead" resourceId={id} />
        </div>
      </div>
      <Timeline resourceType="lead" resourceId={id} phone={lead.phone ?? lead.mobile ?? ''} />
    </section>
  );
}
