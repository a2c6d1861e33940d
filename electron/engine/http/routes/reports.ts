import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { COMMERCE } from '../commerce.js';
import { collectionJson } from '../envelope.js';
import { JSON_TYPE, queryOf, requestUrl } from '../reply.js';
import { Reports } from '../../reports/reports.js';
import { REPORT_NAMES, REPORT_ROW_TYPES, type ReportName } from '../../../../shared/resources/report.js';

/**
 * Reports (extension, docs/api.md "Reports — extension"): each as a
 * collection of rows and as a CSV download. Sales by product reads orders
 * and line items, so it answers under the commerce plan rule like them.
 */
export function reportRoutes(app: FastifyInstance, engine: Engine): void {
  const reports = new Reports(engine.ctx);
  for (const name of REPORT_NAMES) {
    const options = { config: name === 'product_sales' ? { ...COMMERCE } : {} };
    app.get(`/v2/reports/${name}`, options, async (request, reply) => {
      const rows = reports.rowsJson(name, queryOf(request), actorOf(request));
      return reply.type(JSON_TYPE).send(collectionJson(REPORT_ROW_TYPES[name], rows, { self: requestUrl(request).toString() }));
    });
    app.get(`/v2/reports/${name}/export.csv`, options, async (request, reply) => {
      const csv = reports.csv(name, queryOf(request), actorOf(request));
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${fileName(name)}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'private, no-store')
        .send(csv);
    });
  }
}

function fileName(name: ReportName): string {
  return `report-${name}.csv`;
}
