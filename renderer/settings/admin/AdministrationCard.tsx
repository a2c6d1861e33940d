import { Link } from '../../router/Link.js';
import './admin.css';

/** Settings' links to the administration screens (shown to admins only; agents reach nothing to change there). */
export function AdministrationCard() {
  return (
    <section className="card administration-card" aria-label="Administration">
      <h2>Administration</h2>
      <ul className="plain-list">
        <li><Link to="/settings/pipelines">Pipelines and stages</Link> <span className="muted">— stage order, categories and win likelihood</span></li>
        <li><Link to="/settings/lists">Sources and reasons</Link> <span className="muted">— lead and deal sources, loss and unqualified reasons</span></li>
        <li><Link to="/settings/fields">Custom fields</Link> <span className="muted">— extra fields of contacts, leads and deals</span></li>
      </ul>
    </section>
  );
}
