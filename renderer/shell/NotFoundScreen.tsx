import { Link } from '../router/Link.js';

/** An address the app has no screen for (a mistyped or outdated link): says so, and offers the way back. */
export function NotFoundScreen({ path }: { path: string }) {
  return (
    <section className="screen not-found">
      <header className="screen-header"><h1>Page not found</h1></header>
      <p>There is no page at <code className="path">{path}</code>. The link may be mistyped, or what it showed has moved.</p>
      <div className="actions">
        <Link to="/" className="button primary">Go to Today</Link>
        <Link to="/contacts" className="button">Open contacts</Link>
      </div>
    </section>
  );
}
