export const DOCUMENT_RESOURCE_TYPES = ['lead', 'contact', 'sales_account', 'deal'] as const;

export interface CrmDocument {
  id: number;
  resource_type: (typeof DOCUMENT_RESOURCE_TYPES)[number];
  resource_id: number;
  creator_id: number;
  /** File name. */
  name: string;
  content_type: string;
  /** Bytes. */
  size: number;
  /** Signed link, valid 90 minutes from when the document was read. */
  download_url: string;
  created_at: string;
  updated_at: string;
}
