import type { Db } from '../db/database.js';

/**
 * Email addresses no contact or lead has yet. Read once (one query) when a
 * part of the demo data starts; every address handed out is remembered, so
 * neither a second run of `seed` nor faker drawing the same name twice in
 * one run gives two records one address: a taken address gets a number
 * (jane.doe@… → jane.doe2@…, then jane.doe3@…).
 */
export class UniqueEmails {
  private readonly taken: Set<string>;

  constructor(db: Db) {
    const emails = db.prepare('SELECT email FROM contacts WHERE email IS NOT NULL UNION ALL SELECT email FROM leads WHERE email IS NOT NULL').pluck().all() as string[];
    this.taken = new Set(emails.map((email) => email.toLowerCase()));
  }

  /** The address, lower-cased, or the first free numbered variant of it; from now on taken. */
  claim(email: string): string {
    const wanted = email.toLowerCase();
    let candidate = wanted;
    const at = wanted.lastIndexOf('@');
    for (let n = 2; this.taken.has(candidate); n++) candidate = `${wanted.slice(0, at)}${n}${wanted.slice(at)}`;
    this.taken.add(candidate);
    return candidate;
  }
}
