import { showPhone } from './phoneFormat.js';
import { isEmailAddress } from '../forms/checks.js';

/**
 * An email address that opens the mail app (`mailto:`), for a rep to write
 * from any list or page; what is not written as an address ("bob@") is
 * plain text, as a link to it would open a mail to nobody.
 */
export function EmailLink({ email }: { email: string | null | undefined }) {
  if (!email) return null;
  return isEmailAddress(email) ? <a href={`mailto:${email.trim()}`} className="contact-point">{email}</a> : <span className="contact-point-text">{email}</span>;
}

/**
 * A phone number in the one format every screen shows (phoneFormat.ts) that
 * dials on a phone (`tel:` in E.164), the typed value in its tooltip; what
 * cannot be a phone number ("call me", "12") is plain text.
 */
export function PhoneLink({ phone }: { phone: string | null | undefined }) {
  if (!phone) return null;
  const shown = showPhone(phone);
  const typed = shown.text === phone.trim() ? undefined : `As typed: ${phone}`;
  return shown.href ? <a href={shown.href} className="contact-point" title={typed}>{shown.text}</a> : <span className="contact-point-text" title={typed}>{shown.text}</span>;
}
