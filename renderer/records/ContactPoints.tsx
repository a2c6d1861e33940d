import { showPhone } from './phoneFormat.js';

/** An email address that opens the mail app (`mailto:`), for a rep to write from any list or page. */
export function EmailLink({ email }: { email: string | null | undefined }) {
  return email ? <a href={`mailto:${email}`} className="contact-point">{email}</a> : null;
}

/** A phone number in the one format every screen shows (phoneFormat.ts) that dials on a phone (`tel:` in E.164); the typed value in its tooltip. */
export function PhoneLink({ phone }: { phone: string | null | undefined }) {
  if (!phone) return null;
  const shown = showPhone(phone);
  const typed = shown.text === phone.trim() ? undefined : `As typed: ${phone}`;
  return shown.href ? <a href={shown.href} className="contact-point" title={typed}>{shown.text}</a> : <span title={typed}>{shown.text}</span>;
}
