import { sql as initial } from './0001_initial.js';
import { sql as tasks } from './0002_tasks.js';
import { sql as notes } from './0003_notes.js';
import { sql as calls } from './0004_calls.js';
import { sql as textMessagesVisits } from './0005_text_messages_visits.js';
import { sql as documents } from './0006_documents.js';
import { sql as sync } from './0007_sync.js';
import { sql as oauth } from './0008_oauth.js';
import { sql as idempotency } from './0009_idempotency.js';
import { sql as replica } from './0010_replica.js';
import { sql as sourcesReasons } from './0011_sources_reasons_collaborations.js';
import { sql as deals } from './0012_deals.js';
import { sql as leads } from './0013_leads.js';
import { sql as accountSettings } from './0014_account_settings.js';
import { sql as commerce } from './0015_commerce.js';
import { sql as sequences } from './0016_sequences.js';
import { sql as enrollments } from './0017_enrollments.js';
import { sql as customObjects } from './0018_custom_objects.js';
import { sql as calendarFeeds } from './0019_calendar_feeds.js';
import { sql as recordSearch } from './0020_record_search.js';
import { sql as syncSessionPurge } from './0021_sync_session_purge.js';
import { sql as customFieldSync } from './0022_custom_field_sync.js';
import { sql as listNamesNotUnique } from './0023_list_names_not_unique.js';
import { sql as taskSections } from './0024_task_sections.js';
import { sql as userInvitations } from './0025_user_invitations.js';
import { sql as reportIndexes } from './0026_report_indexes.js';
import { sql as fieldMerge } from './0027_field_merge.js';
import { sql as exchangeRates } from './0028_exchange_rates.js';
import { sql as smartLists } from './0029_smart_lists.js';
import { sql as mergedRecords } from './0030_merged_records.js';
import { sql as signInSources } from './0031_sign_in_sources.js';
import { sql as contentlessSearch } from './0032_contentless_search.js';
import { sql as phoneKeys } from './0033_phone_keys.js';
import { sql as contactsKindByName } from './0034_contacts_kind_by_name.js';
import { sql as searchByParts } from './0035_search_by_parts.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * It rebuilds tables that others refer to (SQLite's procedure for what ALTER
   * TABLE cannot do): it runs with foreign keys off, so dropping the old table
   * does not run its referrers' ON DELETE actions. Ids must be kept.
   */
  rebuildsTables?: boolean;
}

/**
 * Numbered migrations, applied in order and tracked with PRAGMA user_version.
 * SQL lives in TypeScript modules (not loose .sql files) so the same code runs
 * under tsx, in the bundled Electron main process and in tests without a copy step.
 * Append only: never edit or reorder a migration that has shipped.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', sql: initial },
  { version: 2, name: 'tasks', sql: tasks },
  { version: 3, name: 'notes', sql: notes },
  { version: 4, name: 'calls', sql: calls },
  { version: 5, name: 'text messages and visits', sql: textMessagesVisits },
  { version: 6, name: 'documents', sql: documents },
  { version: 7, name: 'sync', sql: sync },
  { version: 8, name: 'oauth', sql: oauth },
  { version: 9, name: 'idempotency keys', sql: idempotency },
  { version: 10, name: 'replica', sql: replica },
  { version: 11, name: 'sources, reasons and collaborations', sql: sourcesReasons },
  { version: 12, name: 'pipelines, stages and deals', sql: deals },
  { version: 13, name: 'leads and lead conversions', sql: leads },
  { version: 14, name: 'account add-ons and commerce switch', sql: accountSettings },
  { version: 15, name: 'products, orders and line items', sql: commerce },
  { version: 16, name: 'email templates and sequences', sql: sequences },
  { version: 17, name: 'sequence enrollments and mail settings', sql: enrollments },
  { version: 18, name: 'custom objects', sql: customObjects },
  { version: 19, name: 'calendar feeds', sql: calendarFeeds },
  { version: 20, name: 'record search (deal names)', sql: recordSearch },
  { version: 21, name: 'sync sessions by user and last use', sql: syncSessionPurge },
  { version: 22, name: 'custom field definitions and the account sent to devices', sql: customFieldSync },
  { version: 23, name: 'list names unique only for lead sources', sql: listNamesNotUnique, rebuildsTables: true },
  { version: 24, name: 'tasks by owner and reminder, and by completion time', sql: taskSections },
  { version: 25, name: 'one-time links to set a password (invitations, resets)', sql: userInvitations },
  { version: 26, name: 'covering indexes for the reports', sql: reportIndexes },
  { version: 27, name: 'field-by-field merge of offline edits', sql: fieldMerge },
  { version: 28, name: 'exchange rates', sql: exchangeRates },
  { version: 29, name: 'smart lists', sql: smartLists },
  { version: 30, name: 'merged records and duplicate keys', sql: mergedRecords },
  { version: 31, name: 'failed sign-ins by email and source', sql: signInSources },
  { version: 32, name: 'search indexes without a copy of the text', sql: contentlessSearch },
  { version: 33, name: 'one index per phone column, its key', sql: phoneKeys },
  { version: 34, name: 'people or organizations, by name', sql: contactsKindByName },
  { version: 35, name: 'search by a part of a name and by the last digits of a phone', sql: searchByParts },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;
