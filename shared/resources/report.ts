/**
 * GET /v2/reports/* (extension, docs/api.md "Reports — extension"): the rows
 * each report answers, one collection item per row. Money is exact decimal
 * text with two decimals per ISO currency code, only currencies that occur;
 * rates are decimal text with two decimals ("0.67") or null when undefined.
 */

/** ISO 4217 code → decimal string with 2 decimals: `{"USD": "1200.50"}`. */
export type CurrencyValues = Record<string, string>;

/**
 * Money of several currencies as one amount in the account's currency:
 * each currency's sum × its exchange rate, added exactly and
 * rounded once to the currency's minor units. Currencies without a rate are
 * not in `amount`: they are listed in `unconverted`, as they were.
 */
export interface ConvertedAmount {
  /** The account's currency. */
  currency: string;
  /** Decimal text with the currency's minor units ("1200.50"; "1568" in JPY). */
  amount: string;
  /** The sums in currencies without an exchange rate; `{}` when every one had one. */
  unconverted: CurrencyValues;
}

/** Where each money field of a report row is answered converted: `values` → `converted_value`. */
export const CONVERTED_FIELDS = {
  values: 'converted_value',
  weighted_values: 'converted_weighted_value',
  won_values: 'converted_won_value',
  lost_values: 'converted_lost_value',
} as const;

export const REPORT_NAMES = ['pipeline', 'won_lost', 'loss_reasons', 'activities', 'lead_conversion', 'product_sales'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

/** Time series granularity: calendar months, or ISO weeks starting Monday. */
export const REPORT_INTERVALS = ['month', 'week'] as const;
export type ReportInterval = (typeof REPORT_INTERVALS)[number];

/** `meta.type` of each report's items. */
export const REPORT_ROW_TYPES = {
  pipeline: 'pipeline_report_row',
  won_lost: 'won_lost_report_row',
  loss_reasons: 'loss_reason_report_row',
  activities: 'activity_report_row',
  lead_conversion: 'lead_conversion_report_row',
  product_sales: 'product_sales_report_row',
} as const satisfies Record<ReportName, string>;

/** A period of a time series; both ends inclusive, YYYY-MM-DD in the account's time zone. */
export interface ReportPeriod {
  period_start: string;
  period_end: string;
}

/** One stage of a pipeline, open and closed alike, in stage order. */
export interface PipelineReportRow {
  stage_id: number;
  stage_name: string;
  position: number;
  /** incoming, in_progress, won, lost, unqualified. */
  category: string;
  /** Stage win likelihood, integer percent. */
  likelihood: number;
  deals_count: number;
  values: CurrencyValues;
  /** Σ value × (customized_win_likelihood ?? stage likelihood) ÷ 100, per currency, rounded to cents after summing. */
  weighted_values: CurrencyValues;
  converted_value: ConvertedAmount;
  /** The stage's share of the forecast, in the account's currency. */
  converted_weighted_value: ConvertedAmount;
}

/** Deals won and lost per period (by the day they entered their won/lost stage). */
export interface WonLostReportRow extends ReportPeriod {
  won_count: number;
  won_values: CurrencyValues;
  lost_count: number;
  lost_values: CurrencyValues;
  converted_won_value: ConvertedAmount;
  converted_lost_value: ConvertedAmount;
  /** won ÷ (won + lost), "0.67"; null when neither. */
  win_rate: string | null;
}

/** Deals lost in the range, per loss reason; most deals first. */
export interface LossReasonReportRow {
  /** Null for deals lost without a reason. */
  loss_reason_id: number | null;
  /** "No reason given" when loss_reason_id is null. */
  name: string;
  deals_count: number;
  values: CurrencyValues;
  converted_value: ConvertedAmount;
}

/** One user's activity in one period; users by name, then periods. */
export interface ActivityReportRow extends ReportPeriod {
  user_id: number;
  user_name: string;
  calls: number;
  notes: number;
  tasks_completed: number;
  visits: number;
  /** Emails sent by sequence enrollments' email steps. */
  emails_sent: number;
}

/** Leads created in the range, per lead source; most leads first. */
export interface LeadConversionReportRow {
  /** Null for leads without a source ("No source"). */
  source_id: number | null;
  source_name: string;
  leads_count: number;
  /** Of those leads, how many were converted. */
  converted_count: number;
  /** converted ÷ leads, "0.25"; null when no leads. */
  conversion_rate: string | null;
}

/** Products sold on deals won in the range. */
export interface ProductSalesReportRow {
  product_id: number;
  product_name: string;
  sku: string | null;
  /** Units sold: the line items' quantities summed. */
  quantity: number;
  deals_count: number;
  /** Line items' totals (value × quantity, before the order's discount) per currency. */
  values: CurrencyValues;
  converted_value: ConvertedAmount;
}

export interface ReportRows {
  pipeline: PipelineReportRow;
  won_lost: WonLostReportRow;
  loss_reasons: LossReasonReportRow;
  activities: ActivityReportRow;
  lead_conversion: LeadConversionReportRow;
  product_sales: ProductSalesReportRow;
}
