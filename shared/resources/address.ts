export const ADDRESS_KEYS = ['line1', 'city', 'postal_code', 'state', 'country'] as const;
export type AddressKey = (typeof ADDRESS_KEYS)[number];
export type Address = Record<AddressKey, string | null>;
