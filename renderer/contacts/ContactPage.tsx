import { useEffect, useReducer, useState } from 'react';
import { contactDisplayName, CONTACT_TEXT_FIELDS, type Contact } from '../../shared/resources/contact.js';
import { ADDRESS_KEYS, type Address } from '../../shared/resources/address.js';
import { api, ApiFailure } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useRouter } from '../router/routerStore.js';
import { StatusBadges } from './StatusBadges.js';
import { Timeline } from '../timeline/Timeline.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { TagsEditor } from '../tags/TagsEditor.js';
import { CollaboratorsPanel } from '../collaborators/CollaboratorsPanel.js';
import { ConversionSummary } from '../leads/ConversionSummary.js';
import { RecordEnrollments } from '../enrollments/RecordEnrollments.js';

interface Related {
  organization: Contact | null;
  parent: Contact | null;
  people: Contact[];
}

/** One contact: its details, its organization, and for an organization its people. */
export function ContactPage({ id }: { id: number }) {
  const navigate = useRouter((s) => s.navigate);
  const [contact, setContact] = useState<Contact | null>(null);
  const [related, setRelated] = useState<Related>({ organization: null, parent: null, people: [] });
  const [problem, setProblem] = useState<'gone' | 'renumbered' | 'failed' | null>(null);
  // Bumped when the replica's data changed, to load the contact again.
  const [version, reload] = useReducer((v: number) => v + 1, 0);
  useRefreshOnSync(reload);

  useEffect(() => {
    let live = true;
    (async () => {
      const loaded = await api.get<Contact>(`/v2/contacts/${id}`);
      const [organization, parent, people] = await Promise.all([
        loaded.contact_id ? api.get<Contact>(`/v2/contacts/${loaded.contact_id}`).catch(() => null) : null,
        loaded.parent_organization_id ? api.get<Contact>(`/v2/contacts/${loaded.parent_organization_id}`).catch(() => null) : null,
        loaded.is_organization ? api.list<Contact>('/v2/contacts', { contact_id: id, per_page: 100 }).then((p) => p.items.map((i) => i.data)) : [],
      ]);
      if (live) {
        setContact(loaded);
        setRelated({ organization, parent, people });
        setProblem(null);
      }
    })().catch((err) => {
      if (!live) return;
      // A negative id is a temporary one given on a device copy: once the hub has the contact, follow it to the hub's id.
      if (err instanceof ApiFailure && err.status === 404 && id < 0) {
        api.get<{ hub_id: number }>(`/v2/replica/ids/contact/${id}`).then(
          (mapped) => live && navigate(`/contacts/${mapped.hub_id}`, { replace: true }),
          () => live && setProblem('renumbered'),
        );
      } else if (err instanceof ApiFailure && err.status === 404) setProblem('gone');
      else setProblem('failed');
    });
    return () => {
      live = false;
    };
  }, [id, version, navigate]);

  if (problem) return <section className="screen"><ContactProblem problem={problem} /></section>;
  if (!contact) return <section className="screen"><p className="muted">Loading…</p></section>;

  const remove = async () => {
    if (!window.confirm(`Delete ${contactDisplayName(contact)}? This cannot be undone.`)) return;
    await api.remove(`/v2/contacts/${id}`);
    navigate('/contacts');
  };

  return (
    <section className="screen contact-page">
      <header className="screen-header">
        <div>
          <p className="muted">{contact.is_organization ? 'Organization' : contact.title || 'Person'}</p>
          <h1>{contactDisplayName(contact)}</h1>
          <StatusBadges contact={contact} />
        </div>
        <div className="actions">
          <Link to={`/contacts/${id}/edit`} className="button primary">Edit</Link>
          <button type="button" className="danger" onClick={remove}>Delete</button>
        </div>
      </header>
      <ConversionSummary query={contact.is_organization ? { organization_id: id } : { individual_id: id }} />
      <div className="columns">
        <dl className="card details">
          {related.organization && <Row label="Organization"><Link to={`/contacts/${related.organization.id}`}>{related.organization.name}</Link></Row>}
          {related.parent && <Row label="Parent organization"><Link to={`/contacts/${related.parent.id}`}>{related.parent.name}</Link></Row>}
          {CONTACT_TEXT_FIELDS.filter((f) => contact[f]).map((f) => <Row key={f} label={f.replace(/_/g, ' ')}>{contact[f]}</Row>)}
          <Row label="Address">{formatAddress(contact.address)}</Row>
          {contact.billing_address && <Row label="Billing address">{formatAddress(contact.billing_address)}</Row>}
          {contact.shipping_address && <Row label="Shipping address">{formatAddress(contact.shipping_address)}</Row>}
          {Object.entries(contact.custom_fields).map(([name, value]) => <Row key={name} label={name}>{Array.isArray(value) ? value.join(', ') : String(value)}</Row>)}
        </dl>
        <div className="side">
          {contact.is_organization && (
            <div className="card people" aria-label="People">
              <h2>People</h2>
              {related.people.length === 0 ? <p className="muted">Nobody here yet.</p> : (
                <ul>{related.people.map((p) => <li key={p.id}><Link to={`/contacts/${p.id}`}>{contactDisplayName(p)}</Link> <span className="muted">{p.title}</span></li>)}</ul>
              )}
              <Link to={`/contacts/new?organization=${id}`} className="button">Add a person</Link>
            </div>
          )}
          <TagsEditor resourceType="contact" path={`/v2/contacts/${id}`} tags={contact.tags} onSaved={(saved: Contact) => setContact(saved)} />
          <CollaboratorsPanel resourceType="contact" resourceId={id} />
          <RecordEnrollments resourceType="contact" resourceId={id} />
        </div>
      </div>
      <Timeline resourceType="contact" resourceId={id} phone={contact.phone ?? contact.mobile ?? ''} />
    </section>
  );
}

function ContactProblem({ problem }: { problem: 'gone' | 'renumbered' | 'failed' }) {
  if (problem === 'failed') return <p className="form-error" role="alert">The contact could not be loaded.</p>;
  return (
    <p className="form-error" role="alert">
      {problem === 'renumbered' ? 'This record now has its hub id, so this address no longer leads to it.' : 'This contact does not exist.'}{' '}
      <Link to="/contacts">Go back to the list</Link>
    </p>
  );
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  );
}

function formatAddress(address: Address): string {
  return ADDRESS_KEYS.map((k) => address[k]).filter(Boolean).join(', ') || '—';
}
