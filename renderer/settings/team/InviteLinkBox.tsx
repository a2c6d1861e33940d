import { useEffect, useRef } from 'react';
import { CopyButton } from '../../shell/CopyButton.js';
import { expiryText } from './words.js';
import type { InviteLink } from './useTeam.js';

/**
 * A one-time link just issued, shown once: the hub keeps only a hash of it,
 * so it cannot be shown again (a new one can be made, which ends this one).
 */
export function InviteLinkBox({ title, link, onDismiss }: { title: string; link: InviteLink; onDismiss(): void }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    box.current?.focus();
  }, [link]);

  return (
    <div className="secret-box invite-link" role="region" aria-label="One-time link" tabIndex={-1} ref={box}>
      <h3>{title}</h3>
      <p className="warning"><strong>Copy the link now and send it to them: it is not shown again.</strong></p>
      <p className="muted">It works once, until {expiryText(link.expiresAt)}, and lets them choose a password.</p>
      <code className="token invite-url">{link.url}</code>
      <div className="actions">
        <CopyButton text={link.url} label="Copy link" />
        <button type="button" className="primary" onClick={onDismiss}>Done</button>
      </div>
    </div>
  );
}
