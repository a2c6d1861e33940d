import type * as NodeSide from './hubOnly.js';

/** A browser's engine is a replica: the hub's PostgreSQL, notices and SMTP (hubOnly.ts) are never asked for. */
function notInTheBrowser(what: string): never {
  throw new Error(`${what} is a hub's, not in the browser.`);
}

export function openHubPostgres(): never {
  return notInTheBrowser('A PostgreSQL database');
}

export function listenToAuthChanges(): never {
  return notInTheBrowser('Listening to PostgreSQL notices');
}

export function smtpMailer(): never {
  return notInTheBrowser('Sending email over SMTP');
}

export function sendTestEmail(): never {
  return notInTheBrowser('A test email');
}

// Fails the type check when this side drifts from Node's.
({ openHubPostgres, listenToAuthChanges, smtpMailer, sendTestEmail }) satisfies typeof NodeSide;
