import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useRouter } from '../router/routerStore.js';
import { StatusBadges } from './StatusBadges.js';
import { Timeline } from '../timeline/Timeline.js';
import { TagsEditor } from '../tags/TagsEditor.js';
import { CollaboratorsPanel } from '../collaborators/CollaboratorsPanel.js';
import { ConversionSummary } from '../leads/ConversionSummary.js';
import { RecordEnrollments } from '../enrollments/RecordEnrollments.js';
import { RecordProblemMessage } from '../leads/Details.js';
import { useRecord } from '../leads/useRecord.js';
import { ContactDetails, OrganizationLink } from './ContactDetails.js';
import { RecordHeader } from '../records/RecordHeader.js';
import { ReachLinks } from '../records/ContactFieldRows.js';
import { OrganizationPeople } from './OrganizationPeople.js';
import { ContactDeals } from './ContactDeals.js';
import { ContactLeads } from './ContactLeads.js';
import { ConflictPanel } from '../sync/ConflictPanel.js';
import { askToConfirm } from '../shell/ConfirmDialog.js';

/**
 * One contact, laid out for selling: its name, how to reach it and its
 * actions on top; then the composer and timeline; its details, deals, the
 * leads it came from (an organization's people), tags, collaborators and
 * sequences beside them, folded on a phone.
 */
export function ContactPage({ id }: { id: number }) {
  const navigate = useRouter((s) => s.navigate);
  const { record: contact, problem, setRecord, reload } = useRecord<Contact>(`/v2/contacts/${id}`, { type: 'contact', id });

  if (problem) return <RecordProblemMessage problem={problem} noun="contact" listPath="/contacts" />;
  if (!contact) return <section className="screen"><p className="muted">Loading…</p></section>;

  // Asked in the app's dialog, which also shows a refusal (the record gone meanwhile, say).
  const remove = () => askToConfirm({
    title: `Delete ${contactDisplayName(contact)}?`, detail: 'This cannot be undone.', confirm: 'Delete', doing: 'Deleting…',
    action: async () => {
      await api.remove(`/v2/contacts/${id}`);
      navigate('/contacts');
    },
  });

  return (
    <section className="screen record-page contact-page">
      <RecordHeader
        kind={contact.is_organization ? 'Organization' : contact.title || 'Person'}
        name={contactDisplayName(contact) || '(no name)'}
        badges={<StatusBadges contact={contact} />}
        reach={<>
          {contact.contact_id !== null && <span className="reach-item"><span className="muted">At</span> <OrganizationLink id={contact.contact_id} /></span>}
          <ReachLinks record={contact} />
        </>}
        actions={<>
          <Link to={`/contacts/${id}/edit`} className="button primary">Edit</Link>
          <button type="button" className="danger" onClick={remove}>Delete</button>
        </>} />
      <ConflictPanel type="contact" id={id} onResolved={reload} />
      <ConversionSummary query={contact.is_organization ? { organization_id: id } : { individual_id: id }} />
      <div className="record-layout">
        <div className="record-main">
          <Timeline resourceType="contact" resourceId={id} phone={contact.phone ?? contact.mobile ?? ''} />
        </div>
        <aside className="record-side" aria-label={`About ${contactDisplayName(contact) || 'this contact'}`}>
          <ContactDetails contact={contact} onSaved={setRecord} />
          <ContactDeals contact={contact} />
          {contact.is_organization && <OrganizationPeople organizationId={id} />}
          <ContactLeads contact={contact} />
          <TagsEditor resourceType="contact" path={`/v2/contacts/${id}`} tags={contact.tags} onSaved={(saved: Contact) => setRecord(saved)} />
          <CollaboratorsPanel resourceType="contact" resourceId={id} />
          <RecordEnrollments resourceType="contact" resourceId={id} />
        </aside>
      </div>
    </section>
  );
}
