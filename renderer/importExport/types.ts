// The answers of the import endpoints (docs/api.md, "Import and export"), as the UI reads them.

export type ImportResourceType = 'contact' | 'lead';

/** How CSV columns map to fields: a header → a field name, or null for "don't import". */
export type ColumnMapping = Record<string, string | null>;

/** A field a column can map to (custom fields as `custom_fields.<name>`). */
export interface ImportField {
  name: string;
  label: string;
  required: boolean;
  /** When the field is needed only on some rows, or how its cells are read, in words. */
  requirement?: string;
}

/** A problem of one data row (1-based, the header row not counted) or one card. */
export interface RowError {
  row: number;
  /** The field at fault (`address.city`), or empty for the row as a whole. */
  field: string | null;
  /** Where the value came from: the CSV column, or the vCard property (`EMAIL`). */
  source?: string | null;
  message: string;
}

export interface ImportPreview {
  resource_type: ImportResourceType;
  headers: string[];
  mapping: ColumnMapping;
  fields: ImportField[];
  /** How many data rows the file has. */
  rows: number;
  /** The first rows as they would be imported, by field. */
  sample: { row: number; values: Record<string, unknown> }[];
  /** Every problem of every row: exactly what the import would refuse. */
  errors: RowError[];
}

export interface RejectedRow {
  row: number;
  errors: Omit<RowError, 'row'>[];
}

/** What a vCard file's cards become, before importing them. */
export interface VcardPreview {
  resource_type: 'contact';
  /** How many cards the file has. */
  rows: number;
  /** The first cards as they would be imported, by contact field (`address.city`, `organization_name`). */
  sample: { row: number; values: Record<string, string> }[];
  /** Every problem of every card: exactly what the import would refuse. */
  errors: RowError[];
}

export interface ImportResult {
  resource_type: ImportResourceType;
  imported: number;
  ids: number[];
  rejected: RejectedRow[];
  /** Organizations created for people whose organization no contact had yet. */
  created_organization_ids?: number[];
}
