export const VISIT_VERIFICATION_STATUSES = ['verified', 'resource_location_too_far', 'location_unknown', 'location_services_disabled'] as const;

export interface Visit {
  id: number;
  creator_id: number;
  outcome_id: number | null;
  resource_type: 'lead' | 'contact';
  resource_id: number;
  visited_at: string;
  resource_address: string | null;
  rep_location_verification_status: (typeof VISIT_VERIFICATION_STATUSES)[number];
  summary: string | null;
  created_at: string;
  updated_at: string;
}
