import type { ReactNode } from 'react';
import './recordPage.css';

interface Props {
  /** The line above the name: what the record is ("Organization", "Lead · Bernhard LLC"). */
  kind: ReactNode;
  name: string;
  /** Badges under the name (statuses, Hot). */
  badges?: ReactNode;
  /** How to reach the record at once: phone and email links, its organization. */
  reach?: ReactNode;
  /** Edit, Delete and the like: always on screen, whatever the name's length. */
  actions: ReactNode;
}

/**
 * A record page's header: the name (wrapping anywhere, so a 200-character
 * name without a space never pushes the actions off the screen or the page
 * sideways), what it is, how to reach it, and its actions.
 */
export function RecordHeader({ kind, name, badges, reach, actions }: Props) {
  return (
    <header className="screen-header record-header">
      <div className="record-title">
        <p className="muted record-kind">{kind}</p>
        <h1>{name}</h1>
        {badges}
        {reach && <div className="record-reach">{reach}</div>}
      </div>
      <div className="actions record-actions">{actions}</div>
    </header>
  );
}
