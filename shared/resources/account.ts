/**
 * The account's plans, ascending. The spec names them only by their custom
 * object limits (3 and 5 on the two lowest tiers, 30 on the next two, 50 on
 * the two top ones) and says products and orders need the enterprise plan:
 * Outpost's six tiers follow that, enterprise being the first with commerce.
 */
export const PLANS = ['starter', 'team', 'growth', 'professional', 'enterprise', 'elite'] as const;
export type Plan = (typeof PLANS)[number];

/** A fresh hub starts on the top plan with every add-on: a self-hosted team gets everything. */
export const TOP_PLAN: Plan = 'elite';

export interface PlanLimits {
  /** Custom objects an account may define. */
  customObjects: number;
  /** Lookup relationship fields per custom object. */
  lookupFields: number;
  /** Products, orders and line items. */
  commerce: boolean;
}

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  starter: { customObjects: 3, lookupFields: 5, commerce: false },
  team: { customObjects: 5, lookupFields: 5, commerce: false },
  growth: { customObjects: 30, lookupFields: 10, commerce: false },
  professional: { customObjects: 30, lookupFields: 10, commerce: false },
  enterprise: { customObjects: 50, lookupFields: 10, commerce: true },
  elite: { customObjects: 50, lookupFields: 10, commerce: true },
};

/** Products an account can add to its plan; sequence enrollments need outbound sequences. */
export const ADDONS = ['outbound_sequences'] as const;
export type Addon = (typeof ADDONS)[number];

/** The admin switch for products, orders and line items: when disabled, their data stays and only GET is allowed. */
export const COMMERCE_CHANGES = ['enabled', 'disabled'] as const;
export type CommerceChanges = (typeof COMMERCE_CHANGES)[number];

export interface Account {
  id: number;
  name: string;
  currency: string;
  phone: string | null;
  time_format: '12H' | '24H';
  /** UTC offset, e.g. `UTC+01:00`. */
  timezone: string;
  plan: Plan;
  /** The add-ons the account has. */
  addons: Addon[];
  commerce_changes: CommerceChanges;
  /** Whether a mail server (`smtp_url`, written only: it holds a password) is set. */
  smtp_configured: boolean;
  created_at: string;
  updated_at: string;
}
