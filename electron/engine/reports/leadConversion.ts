import type { LeadConversionReportRow } from '../../../shared/resources/report.js';
import { rateText } from './money.js';
import { ownerOf, rangeOf } from './params.js';
import { ownerClause, type Report } from './report.js';

interface SourceRow { source_id: number | null; source_name: string | null; leads: number; converted: number }

export const NO_SOURCE = 'No source';

/** Leads created in the range per source (the lead's owner filters), and how many of them were converted; most leads first. */
export const leadConversionReport: Report<LeadConversionReportRow> = {
  params: ['owner_id', 'from', 'to'],

  rows(ctx, query, actor) {
    const ownerId = ownerOf(ctx, query, actor);
    const range = rangeOf(ctx, query);
    const owner = ownerClause('l.owner_id', ownerId);
    const sql = `SELECT l.source_id, (SELECT s.name FROM sources s WHERE s.id = l.source_id) AS source_name, count(*) AS leads,
        sum(CASE WHEN EXISTS (SELECT 1 FROM lead_conversions c WHERE c.lead_id = l.id) THEN 1 ELSE 0 END) AS converted
      FROM leads l WHERE l.created_at >= ? AND l.created_at < ?${owner.sql} GROUP BY l.source_id`;
    const rows = ctx.statements.get(sql).all(range.startUtc, range.endUtcExclusive, ...owner.params) as SourceRow[];
    return rows
      .map((r) => ({
        source_id: r.source_id, source_name: r.source_id === null ? NO_SOURCE : (r.source_name ?? `Source ${r.source_id}`),
        leads_count: r.leads, converted_count: r.converted, conversion_rate: rateText(r.converted, r.leads),
      }))
      .sort((a, b) => b.leads_count - a.leads_count || a.source_name.localeCompare(b.source_name));
  },

  csv(rows) {
    const records = rows.map((r) => ({ Source: r.source_name, Leads: r.leads_count, Converted: r.converted_count, 'Conversion rate': r.conversion_rate }));
    return { records, columns: ['Source', 'Leads', 'Converted', 'Conversion rate'] };
  },
};
