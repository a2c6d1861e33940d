import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import type { SmartList, SmartListType } from '../../shared/resources/smartList.js';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import { useRouter } from '../router/routerStore.js';
import { useSmartLists } from './smartListStore.js';
import { pageQuery, smartListIdIn, viewKey } from './smartListQuery.js';

export interface SmartListScreen {
  resource: SmartListType;
  /** The smart list open here (the address's `smart_list_id`), once read. */
  list: SmartList | null;
  /** The rep changed the filters or sort since it opened or was saved. */
  dirty: boolean;
  /** The screen's view now (its query without paging): what Save writes. */
  query: Record<string, QueryValue>;
  /** What to send for the list: the smart list itself while unchanged (smartListQuery.pageQuery). */
  request: Record<string, QueryValue>;
  error: string | null;
}

interface Handlers {
  /** Sets the screen's filters and sort from a smart list's (each screen knows its own controls). */
  apply(list: SmartList): void;
  /** Back to the screen's own defaults when the smart list is closed. */
  reset(): void;
}

/**
 * A list screen with smart lists: the address's `smart_list_id` opens one
 * (its filters and sort applied to the screen's controls), and the view as
 * it then is counts as the list as saved, until the rep changes it.
 */
export function useSmartListScreen(resource: SmartListType, query: Record<string, QueryValue>, handlers: Handlers): SmartListScreen {
  const id = smartListIdIn(useRouter((s) => s.search));
  const open = useSmartLists((s) => s.open);
  const [error, setError] = useState<string | null>(null);
  const apply = useEffectEvent((list: SmartList) => handlers.apply(list));
  const reset = useEffectEvent(() => handlers.reset());
  // Whether this screen showed a smart list: closing it brings back the screen's own view.
  const hadOne = useRef(false);

  useEffect(() => {
    if (id === null) {
      // Closed, or come back to without one (the contacts keep their filters between visits): the screen's own view again.
      const { applied } = useSmartLists.getState();
      if (hadOne.current || applied === resource) reset();
      useSmartLists.setState({ open: { list: null, baseline: null }, applied: applied === resource ? null : applied });
      hadOne.current = false;
      return;
    }
    let live = true;
    hadOne.current = true;
    api.get<SmartList>(`/v2/smart_lists/${id}`).then((list) => {
      if (!live) return;
      if (list.resource_type !== resource) {
        setError(`That smart list is not a list of ${resource}s.`);
        return;
      }
      apply(list);
      useSmartLists.setState({ open: { list, baseline: null }, applied: resource });
      setError(null);
    }, (err: unknown) => {
      if (live) setError(refusalText(err, 'The smart list could not be opened.'));
    });
    return () => {
      live = false;
    };
  }, [id, resource]);

  // Once the screen shows the list's filters (the render after they were applied), that view is the list as saved.
  const key = viewKey(query);
  const mine = open.list !== null && open.list.id === id && open.list.resource_type === resource;
  useEffect(() => {
    if (mine && open.baseline === null) useSmartLists.setState({ open: { list: open.list, baseline: key } });
  }, [mine, open, key]);

  const current = mine ? open : { list: null, baseline: null };
  return {
    resource,
    list: current.list,
    dirty: current.list !== null && current.baseline !== null && current.baseline !== key,
    query,
    request: pageQuery(query, current, resource),
    error,
  };
}
