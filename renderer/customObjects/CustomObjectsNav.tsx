import { useEffect } from 'react';
import { Link } from '../router/Link.js';
import { useCustomObjects } from './customObjectsStore.js';
import { recordsPath } from './paths.js';

/** The account's custom objects in the sidebar, by their plural titles; nothing while there are none. */
export function CustomObjectsNav({ path }: { path: string }) {
  const objects = useCustomObjects((s) => s.objects);
  const load = useCustomObjects((s) => s.load);

  useEffect(() => {
    void load();
  }, [load]);

  if (!objects || objects.length === 0) return null;
  return (
    <div className="objects-nav">
      <div className="objects-nav-heading" id="objects-nav-heading">Objects</div>
      <ul aria-labelledby="objects-nav-heading">
        {objects.map((o) => {
          const to = recordsPath(o.key);
          const current = path === to || path.startsWith(`${to}/`);
          return (
            <li key={o.key}>
              <Link to={to} aria-current={current ? 'page' : undefined}>{o.title_pluralized}</Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
