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
import { ContactDetails } from './ContactDetails.js';
import { OrganizationPeople } from './OrganizationPeople.js';
import { ContactDeals } from './ContactDeals.js';
import { ContactLeads } from './ContactLeads.js';
import { ConflictPanel } from '../sync/ConflictPanel.js';

/**
 * One contact: its details, its deals and the leads it came from; an
 * organization's people; tags, collaborators, sequences and its activity.
 */
export function ContactPage({ id }: { id: number }) {
  const navigate = useRouter((s) => s.navigate);
  const { record: contact, problem, setRecord, reload } = useRecord<Contact>(`/v2/contacts/${id}`, { type: 'contact', id });

  if (problem) return <RecordProblemMessage problem={problem} noun="contact" listPath="/contacts" />;
  if (!contact) return <section className="screen"><p className="muted">Loading…</p></section>;

  const remove = async () => {
    if (!window.confirm(`Delete ${contactDisplayName(contact)}? This cannot be undone.`)) return;
    await api.remove(`/v2/contacts/${id}`);
    navigate('/contacts');
  };

  return (
    <section className="screen record-page contact-page">
      <header className="screen-header">
        <div>
          <p className="muted">{contact.is_organization ? 'Organization' : contact.title || 'Person'}</p>
          <h1>{contactDisplayName(contact) || '(no name)'}</h1>
          <StatusBadges contact={contact} />
        </div>
        <div className="actions">
          <Link to={`/contacts/${id}/edit`} className="button primary">Edit</Link>
          <button type="button" className="danger" onClick={remove}>Delete</button>
        </div>
      </header>
      <ConflictPanel type="contact" id={id} onResolved={reload} />
      <ConversionSummary query={contact.is_organization ? { organization_id: id } : { individual_id: id }} />
      <div className="columns">
        <div className="main-column">
          <ContactDetails contact={contact} />
          {contact.is_organization && <OrganizationPeople organizationId={id} />}
          <ContactDeals contact={contact} />
          <ContactLeads contact={contact} />
        </div>
        <div className="side">
          <TagsEditor resourceType="contact" path={`/v2/contacts/${id}`} tags={contact.tags} onSaved={(saved: Contact) => setRecord(saved)} />
          <CollaboratorsPanel resourceType="contact" resourceId={id} />
          <RecordEnrollments resourceType="contact" resourceId={id} />
        </div>
      </div>
      <Timeline resourceType="contact" resourceId={id} phone={contact.phone ?? contact.mobile ?? ''} />
    </section>
  );
}
