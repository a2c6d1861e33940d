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
import { AddressText, DetailRow, formatCustomValue, RecordProblemMessage } from './Details.js';
import { RecordHeader } from '../records/RecordHeader.js';
import { RecordSection } from '../records/RecordSection.js';
import { useNamedOptions } from './useNamedOptions.js';
import { RecordEnrollments } from '../enrollments/RecordEnrollments.js';
import { useRecord } from './useRecord.js';
import { CONVERTED_LEAD_STATUS, leadDisplayName, type Lead } from '../../shared/resources/lead.js';
import { ContactFieldRows, filledContactFields, ReachLinks } from '../records/ContactFieldRows.js';
import { ConflictPanel } from '../sync/ConflictPanel.js';
import { OwnerField } from '../owners/OwnerField.js';
import { askToConfirm } from '../shell/ConfirmDialog.js';

/** One lead, laid out as a contact's page is (ContactPage): name, reach and actions (Convert first), the timeline, its details and panels beside it. */
export function LeadPage({ id }: { id: number }) {
  const navigate = useRouter((s) => s.navigate);
  const { record: lead, problem, setRecord, reload } = useRecord<Lead>(`/v2/leads/${id}`, { type: 'lead', id });
  const users = useUsers();
  const sources = useNamedOptions('/v2/lead_sources');
  const [converting, setConverting] = useState(false);

  if (problem) return <RecordProblemMessage problem={problem} noun="lead" listPath="/leads" />;
  if (!lead) return <section className="screen"><p className="muted">Loading…</p></section>;

  // Asked in the app's dialog, which also shows a refusal (the record gone meanwhile, say).
  const remove = () => askToConfirm({
    title: `Delete ${leadDisplayName(lead)}?`, detail: 'This cannot be undone.', confirm: 'Delete', doing: 'Deleting…',
    action: async () => {
      await api.remove(`/v2/leads/${id}`);
      navigate('/leads');
    },
  });

  const owner = users.find((u) => u.id === lead.owner_id)?.name;
  const source = sources.find((s) => s.id === lead.source_id)?.name;
  const details = [lead.first_name, lead.last_name, lead.organization_name, owner, source].filter(Boolean).length
    + filledContactFields(lead).length + 1 + Object.keys(lead.custom_fields).length;
  return (
    <section className="screen record-page lead-page">
      <RecordHeader
        kind={`Lead${lead.organization_name && lead.last_name ? ` · ${lead.organization_name}` : ''}`}
        name={leadDisplayName(lead) || '(no name)'}
        badges={lead.status ? <span className="badges"><span className="badge">{lead.status}</span></span> : null}
        reach={<ReachLinks record={lead} />}
        actions={<>
          {lead.status !== CONVERTED_LEAD_STATUS && <button type="button" className="primary" onClick={() => setConverting(true)}>Convert</button>}
          <Link to={`/leads/${id}/edit`} className="button">Edit</Link>
          <button type="button" className="danger" onClick={remove}>Delete</button>
        </>} />
      <ConflictPanel type="lead" id={id} onResolved={reload} />
      {converting && <ConvertDialog lead={lead} onClose={() => setConverting(false)} />}
      <ConversionSummary query={{ lead_id: id }} />
      <div className="record-layout">
        <div className="record-main">
          <Timeline resourceType="lead" resourceId={id} phone={lead.phone ?? lead.mobile ?? ''} />
        </div>
        <aside className="record-side" aria-label={`About ${leadDisplayName(lead) || 'this lead'}`}>
          <RecordSection title="Details" count={details} className="details-section">
            <dl className="details">
              {lead.first_name && <DetailRow label="First name">{lead.first_name}</DetailRow>}
              {lead.last_name && <DetailRow label="Last name">{lead.last_name}</DetailRow>}
              {lead.organization_name && <DetailRow label="Organization">{lead.organization_name}</DetailRow>}
              <OwnerField path={`/v2/leads/${id}`} record={lead} onSaved={setRecord} />
              {source && <DetailRow label="Source">{source}</DetailRow>}
              <ContactFieldRows record={lead} />
              <DetailRow label="Address"><AddressText address={lead.address} /></DetailRow>
              {Object.entries(lead.custom_fields).map(([name, value]) => <DetailRow key={name} label={name}>{formatCustomValue(value)}</DetailRow>)}
            </dl>
          </RecordSection>
          <TagsEditor resourceType="lead" path={`/v2/leads/${id}`} tags={lead.tags} onSaved={setRecord} />
          <CollaboratorsPanel resourceType="lead" resourceId={id} />
          <RecordEnrollments resourceType="lead" resourceId={id} />
        </aside>
      </div>
    </section>
  );
}
