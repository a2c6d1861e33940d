import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import { Link } from '../router/Link.js';
import type { DuplicateGroup, MergeableType } from '../../shared/resources/merge.js';
import { PLURAL, REASON_WORDS, recordName } from './duplicateWords.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { showPhone } from '../records/phoneFormat.js';
import './duplicates.css';

const PER_PAGE = 25;

type Named = { id: number; name?: string | null; first_name?: string | null; last_name?: string | null; email?: string | null; phone?: string | null; mobile?: string | null; organization_name?: string | null };

interface PageOfGroups {
  groups: DuplicateGroup[];
  records: Map<number, Named>;
  hasMore: boolean;
}

/**
 * Duplicates: groups of likely duplicate contacts or leads (GET
 * /v2/{contacts|leads}/duplicates), each saying why; "Merge" on a pair opens
 * the side-by-side merge view.
 */
export function DuplicatesScreen({ type }: { type: MergeableType }) {
  const [page, setPage] = useState(1);
  const [shown, setShown] = useState<PageOfGroups | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Sets state only once the answer is in, so the effect below may start it.
  const load = useCallback(() => {
    groupsPage(type, page).then(
      (answer) => {
        setShown(answer);
        setFailure(null);
      },
      (err: unknown) => setFailure(refusalText(err, 'The duplicates could not be loaded.')),
    );
  }, [type, page]);
  useEffect(() => load(), [load]);
  useRefreshOnSync(load);

  return (
    <section className="screen duplicates-screen">
      <header className="screen-header">
        <h1>Duplicates</h1>
        <nav className="duplicates-kinds" aria-label="Duplicates of">
          {(['contact', 'lead'] as const).map((kind) => (
            <Link key={kind} to={`/duplicates/${PLURAL[kind]}`} className={`button${kind === type ? ' primary' : ''}`} aria-current={kind === type ? 'page' : undefined}>
              {kind === 'contact' ? 'Contacts' : 'Leads'}
            </Link>
          ))}
        </nav>
      </header>
      <p className="muted">Records that share an email, a phone number, or a name in the same organization.</p>
      {failure && <p role="alert" className="error">{failure}</p>}
      {!shown && !failure && <p className="muted">Loading…</p>}
      {shown && shown.groups.length === 0 && page === 1 && <p className="card">No likely duplicates among your {PLURAL[type]}.</p>}
      {shown && (
        <ul className="duplicate-groups">
          {cardsOf(shown.groups).map((card) => <GroupCard key={card.ids.join(',')} type={type} card={card} records={shown.records} />)}
        </ul>
      )}
      {shown && (page > 1 || shown.hasMore) && (
        <div className="duplicates-paging">
          <button type="button" disabled={page === 1} onClick={() => setPage(page - 1)}>Previous</button>
          <span className="muted">Page {page}</span>
          <button type="button" disabled={!shown.hasMore} onClick={() => setPage(page + 1)}>Next</button>
        </div>
      )}
    </section>
  );
}

/** One card per set of records: the same pair found by email and by name shows once, with both reasons. */
interface Card {
  ids: number[];
  reasons: Pick<DuplicateGroup, 'reason' | 'key'>[];
}

function cardsOf(groups: DuplicateGroup[]): Card[] {
  const cards = new Map<string, Card>();
  for (const { reason, key, ids } of groups) {
    const card = cards.get(ids.join(',')) ?? { ids, reasons: [] };
    card.reasons.push({ reason, key });
    cards.set(ids.join(','), card);
  }
  return [...cards.values()];
}

function GroupCard({ type, card, records }: { type: MergeableType; card: Card; records: Map<number, Named> }) {
  const [first, ...others] = card.ids;
  return (
    <li className="card duplicate-group">
      <h2>
        {card.reasons.map(({ reason, key }) => (
          <span key={reason} className="duplicate-why">
            <span className="duplicate-reason">{REASON_WORDS[reason]}</span>
            {/* A phone key is the number's last digits: the records below show the numbers themselves. */}
            {reason !== 'phone' && <span className="duplicate-key"> {key}</span>}
          </span>
        ))}
      </h2>
      <ul className="duplicate-records">
        {card.ids.map((id) => {
          const record = records.get(id);
          return (
            <li key={id}>
              <Link to={`/${PLURAL[type]}/${id}`}>{record ? recordName(record) : `#${id}`}</Link>
              {record && <RecordDetails record={record} />}
            </li>
          );
        })}
      </ul>
      <div className="actions">
        {others.map((id) => (
          <Link key={id} to={`/duplicates/${PLURAL[type]}/${first}/merge/${id}`} className="button primary"
            aria-label={`Merge ${nameOf(records, first)} and ${nameOf(records, id)}`}>
            {others.length > 1 ? `Merge with ${nameOf(records, id)}` : 'Merge'}
          </Link>
        ))}
      </div>
    </li>
  );
}

/** A card's record's email, phone (in the one format every screen shows, records/phoneFormat.ts, never broken across lines) and organization. */
function RecordDetails({ record }: { record: Named }) {
  const phone = record.phone ?? record.mobile;
  const parts = [
    record.email && <span key="email">{record.email}</span>,
    phone && <span key="phone" className="duplicate-phone">{showPhone(phone).text}</span>,
    record.organization_name && <span key="organization">{record.organization_name}</span>,
  ].filter(Boolean);
  return <span className="muted duplicate-details"> {parts.flatMap((part, i) => (i === 0 ? [part] : [' · ', part]))}</span>;
}

const nameOf = (records: Map<number, Named>, id: number) => {
  const record = records.get(id);
  return record ? recordName(record) : `#${id}`;
};

async function groupsPage(type: MergeableType, page: number): Promise<PageOfGroups> {
  const answer = await api.list<DuplicateGroup>(`/v2/${PLURAL[type]}/duplicates`, { page, per_page: PER_PAGE });
  const groups = answer.items.map((item) => item.data);
  const ids = [...new Set(groups.flatMap((group) => group.ids))];
  const records = new Map<number, Named>();
  // The records named, a hundred at a time (a list page's most).
  for (let at = 0; at < ids.length; at += 100) {
    const chunk = ids.slice(at, at + 100);
    const listed = await api.list<Named>(`/v2/${PLURAL[type]}`, { ids: chunk.join(','), per_page: 100 });
    for (const item of listed.items) records.set(item.data.id, item.data);
  }
  return { groups, records, hasMore: Boolean((answer.meta.links as { next_page?: string }).next_page) };
}
