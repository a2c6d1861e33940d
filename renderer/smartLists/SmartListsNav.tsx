import { useEffect } from 'react';
import { SMART_LIST_TYPES, type SmartListType } from '../../shared/resources/smartList.js';
import { Link } from '../router/Link.js';
import { useRouter } from '../router/routerStore.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { listsOf, useSmartLists } from './smartListStore.js';
import { smartListIdIn, smartListPath } from './smartListQuery.js';
import './smartLists.css';

const HEADINGS: Record<SmartListType, string> = { contact: 'Contacts', lead: 'Leads', deal: 'Deals', task: 'Tasks' };

/** The user's own and the shared smart lists in the sidebar, under their resource, each with its count; nothing while there are none. */
export function SmartListsNav() {
  const lists = useSmartLists((s) => s.lists);
  const counts = useSmartLists((s) => s.counts);
  const openId = smartListIdIn(useRouter((s) => s.search));
  useEffect(() => void useSmartLists.getState().load(), []);
  useRefreshOnSync(() => void useSmartLists.getState().load());

  if (!lists || lists.length === 0) return null;
  return (
    <div className="smart-lists-nav">
      <div className="smart-lists-heading" id="smart-lists-heading">Smart lists</div>
      {SMART_LIST_TYPES.map((type) => {
        const mine = listsOf(lists, type);
        if (mine.length === 0) return null;
        return (
          <div key={type} className="smart-lists-group">
            <div className="smart-lists-resource" id={`smart-lists-${type}`}>{HEADINGS[type]}</div>
            <ul aria-labelledby={`smart-lists-${type}`}>
              {mine.map((list) => (
                <li key={list.id}>
                  <Link to={smartListPath(list)} aria-current={openId === list.id ? 'page' : undefined}>
                    <span className="smart-list-label">{list.name}</span>{' '}
                    <span className="smart-list-count">{counts[list.id] ?? '…'}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
