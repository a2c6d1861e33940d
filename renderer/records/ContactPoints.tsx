/** An email address that opens the mail app (`mailto:`), for a rep to write from any list or page. */
export function EmailLink({ email }: { email: string | null | undefined }) {
  return email ? <a href={`mailto:${email}`} className="contact-point">{email}</a> : null;
}

/** A phone number that dials on a phone (`tel:`, digits and a leading + only), shown as it was typed. */
export function PhoneLink({ phone }: { phone: string | null | undefined }) {
  if (!phone) return null;
  const dial = phone.replace(/(?!^\+)[^\d]/g, '');
  return dial ? <a href={`tel:${dial}`} className="contact-point">{phone}</a> : <>{phone}</>;
}
