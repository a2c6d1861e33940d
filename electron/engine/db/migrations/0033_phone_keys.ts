import { phoneIndexesReplacedSql, phoneKeyIndexesSql } from '../phoneKeySql.js';

/**
 * Migration 33: one index per phone column, its key.
 *
 * Contacts had two indexes per phone column: the column itself, for the
 * lists' exact `phone` and `mobile` filters, and its key (the last nine
 * digits, migration 30) for duplicates. The filters now find a number
 * through its key, then compare it exactly (resources/listing.ts): a key is
 * as selective as the number, so the plain indexes go, and with them their
 * cost on every write and on a replica's first sync (about 1 s of sorting at
 * a million contacts). Leads had only the keys, so their phone filters read
 * the whole table until now.
 *
 * The key is now written `substr(digits, -9)`, the digits computed once per
 * row instead of twice (`substr(digits, max(1, length(digits) - 8))`): 0.7 s
 * instead of 1.0 s per index at a million contacts. Same keys, same lookups.
 */
export const sql = /* sql */ `
${phoneIndexesReplacedSql}
${phoneKeyIndexesSql('sqlite')}
`;
