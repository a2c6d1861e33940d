import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EmailLink, PhoneLink } from './ContactPoints.js';

const emailShown = (email: string) => renderToStaticMarkup(createElement(EmailLink, { email }));
const phoneShown = (phone: string) => renderToStaticMarkup(createElement(PhoneLink, { phone }));

describe('EmailLink', () => {
  it('writes to an email address', () => {
    expect(emailShown('ann@fjord.no')).toBe('<a href="mailto:ann@fjord.no" class="contact-point">ann@fjord.no</a>');
    expect(emailShown(' bob.lee@mail.example.com ')).toContain('href="mailto:bob.lee@mail.example.com"');
  });

  it('shows what is not an email address as plain text, never a link', () => {
    for (const email of ['bob@', 'not an email', '@example.com', 'bob@example', 'bob smith@example.com', 'a@b@c.com']) {
      const shown = emailShown(email);
      expect(shown, email).not.toContain('<a');
      expect(shown, email).not.toContain('mailto:');
      expect(shown, email).toContain(email);
    }
  });

  it('shows nothing for no email', () => {
    expect(renderToStaticMarkup(createElement(EmailLink, { email: null }))).toBe('');
  });
});

describe('PhoneLink', () => {
  it('dials a phone number, shown in the international format', () => {
    expect(phoneShown('+44 20 7946 0018')).toContain('<a href="tel:+442079460018"');
    expect(phoneShown('+44 20 7946 0018')).toContain('>+44 20 7946 0018</a>');
  });

  it('shows what cannot be a phone number as plain text, never a link', () => {
    for (const phone of ['call me', '12', '+44 12', 'ask reception']) {
      const shown = phoneShown(phone);
      expect(shown, phone).not.toContain('<a');
      expect(shown, phone).not.toContain('tel:');
      expect(shown, phone).toContain(phone);
    }
  });
});
