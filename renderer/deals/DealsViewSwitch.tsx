import { Link } from '../router/Link.js';
import './dealsViews.css';

/** Board | List: the deals screen's two views, each with its own address (/deals, /deals/list). */
export function DealsViewSwitch({ current }: { current: 'board' | 'list' }) {
  return (
    <nav className="view-switch" aria-label="Deals view">
      <Link to="/deals" aria-current={current === 'board' ? 'page' : undefined}>Board</Link>
      <Link to="/deals/list" aria-current={current === 'list' ? 'page' : undefined}>List</Link>
    </nav>
  );
}
