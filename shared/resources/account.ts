export interface Account {
  id: number;
  name: string;
  currency: string;
  phone: string | null;
  time_format: '12H' | '24H';
  /** UTC offset, e.g. `UTC+01:00`. */
  timezone: string;
  plan: string;
  created_at: string;
  updated_at: string;
}
