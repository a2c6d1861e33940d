// The API's contact JSON and collection links, built in JavaScript the plain way, for the two baseline
// servers (bareServer.mjs on SQLite, barePostgresServer.mjs on PostgreSQL). Mirrors
// shared/resources/contact.ts and address.ts (plain node cannot import them); the bench checks before
// measuring that each server answers the same data as the hub.
const TEXT_FIELDS = ['title', 'description', 'industry', 'website', 'email', 'phone', 'mobile', 'fax', 'twitter', 'facebook', 'linkedin', 'skype'];
const ADDRESS_KEYS = ['line1', 'city', 'postal_code', 'state', 'country'];

function address(row, prefix, nullable) {
  const value = {};
  for (const k of ADDRESS_KEYS) value[k] = row[`${prefix}_${k}`];
  return nullable && ADDRESS_KEYS.every((k) => value[k] === null) ? null : value;
}

/** The same output fields, in the same order, as the engine's contact JSON, built in JavaScript. */
export function contact(row) {
  const out = {
    id: row.id, creator_id: row.creator_id, owner_id: row.owner_id, is_organization: row.is_organization === 1,
    contact_id: row.contact_id, parent_organization_id: row.parent_organization_id, name: row.name,
    first_name: row.first_name, last_name: row.last_name, customer_status: row.customer_status, prospect_status: row.prospect_status,
  };
  for (const f of TEXT_FIELDS) out[f] = row[f];
  out.address = address(row, 'address', false);
  out.billing_address = address(row, 'billing_address', true);
  out.shipping_address = address(row, 'shipping_address', true);
  out.tags = row.tag_names ? row.tag_names.split('\u001f').sort() : [];
  out.custom_fields = JSON.parse(row.custom_fields);
  out.created_at = row.created_at;
  out.updated_at = row.updated_at;
  return out;
}

/** Collection links as the engine builds them: self and first always, neighbours where they exist. */
export function pageLinks(url, page, perPage, hasMore) {
  const at = (p) => {
    const u = new URL(url);
    u.searchParams.set('page', String(p));
    u.searchParams.set('per_page', String(perPage));
    return u.toString();
  };
  const links = { self: at(page), first_page: at(1) };
  if (page > 1) links.prev_page = at(page - 1);
  if (hasMore) links.next_page = at(page + 1);
  return links;
}
