import { useEffect, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import type { Product } from '../../shared/resources/product.js';
import { api } from '../api/client.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { formatMoney } from '../deals/money.js';
import { ProductForm } from './ProductForm.js';
import { CHANGES_OFF_NOTICE, useCommerceAccess } from './useCommerceAccess.js';
import { CsvExportButton } from '../importExport/ExportButton.js';
import { DataTable } from '../lists/DataTable.js';
import { FilterBar } from '../lists/FilterBar.js';
import { ListCount } from '../lists/ListCount.js';
import { ListStatus } from '../lists/ListStatus.js';
import { refusalText } from '../api/formErrors.js';
import { askToConfirm } from '../shell/ConfirmDialog.js';

const FILTER_DELAY_MS = 150;

interface Filters {
  name: string;
  sku: string;
  active: string;
}

const toQuery = (f: Filters): Record<string, QueryValue> => ({
  name: f.name.trim() || undefined,
  sku: f.sku.trim() || undefined,
  active: f.active || undefined,
  sort_by: 'id',
});

/** Null: no form open; 'new': creating; a product: editing it. */
type Editing = null | 'new' | Product;

/**
 * The product catalog: everyone reads it; admins add, edit and delete
 * products while changes are allowed. Without a plan that has products the
 * list shows the API's refusal, which names the plan.
 */
export function ProductsScreen() {
  const { isAdmin, planIncludesCommerce, changesAllowed } = useCommerceAccess();
  const canEdit = isAdmin && changesAllowed;
  const [typed, setTyped] = useState<Filters>({ name: '', sku: '', active: '' });
  const [filters, setFilters] = useState(typed);
  const [editing, setEditing] = useState<Editing>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const list = usePagedList<Product>('/v2/products', toQuery(filters));
  useRefreshOnSync(list.refresh);

  // Filter as you type, once the typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setFilters(typed), FILTER_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  const saved = () => {
    setEditing(null);
    setActionError(null);
    list.refresh();
  };
  const remove = async (product: Product) => {
    if (!(await askToConfirm({ title: `Delete ${product.name} from the catalog?`, detail: 'Orders that have it keep their line items.', confirm: 'Delete' }))) return;
    try {
      await api.remove(`/v2/products/${product.id}`);
      setActionError(null);
      list.refresh();
    } catch (err) {
      setActionError(refusalText(err, 'The product could not be deleted.'));
    }
  };

  // On a plan without products there is nothing to filter or change: only the API's refusal, which names the plan.
  if (!planIncludesCommerce && list.error) {
    return (
      <section className="screen products-screen">
        <header className="screen-header"><h1>Products</h1></header>
        <p className="form-error" role="alert">{list.error}</p>
      </section>
    );
  }
  return (
    <section className="screen products-screen">
      <header className="screen-header">
        <h1>Products</h1>
        <div className="list-actions">
          <CsvExportButton resource="products" query={toQuery(filters)} what="products" />
          {canEdit && editing === null && <button type="button" className="primary" onClick={() => setEditing('new')}>New product</button>}
        </div>
      </header>
      {!changesAllowed && <p className="notice" role="note">{CHANGES_OFF_NOTICE}</p>}
      {!isAdmin && <p className="muted">Only administrators change the catalog.</p>}
      {editing !== null && canEdit && (
        <ProductForm key={editing === 'new' ? 'new' : editing.id} product={editing === 'new' ? null : editing} onSaved={saved} onCancel={() => setEditing(null)} />
      )}
      <FilterBar active={[typed.sku.trim(), typed.active].filter(Boolean).length} count={<ListCount shown={list.rows.length} total={list.total} loading={list.loading} />}
        search={<input type="search" placeholder="Name (exact match)" aria-label="Filter by name" value={typed.name} onChange={(e) => setTyped({ ...typed, name: e.target.value })} />}>
        <input type="text" placeholder="SKU (exact match)" aria-label="Filter by SKU" value={typed.sku} onChange={(e) => setTyped({ ...typed, sku: e.target.value })} />
        <select aria-label="Active" value={typed.active} onChange={(e) => setTyped({ ...typed, active: e.target.value })}>
          <option value="">Active and inactive</option>
          <option value="true">Active only</option>
          <option value="false">Inactive only</option>
        </select>
      </FilterBar>
      {actionError && <p className="form-error" role="alert">{actionError}</p>}
      {!list.error && <ProductTable products={list.rows} showCost={isAdmin} onEdit={canEdit ? setEditing : null} onRemove={canEdit ? (p) => void remove(p) : null} />}
      <ListStatus list={list} empty="No products match." />
    </section>
  );
}

interface TableProps {
  products: Product[];
  showCost: boolean;
  /** Null when the viewer may not change products: no edit controls at all. */
  onEdit: ((product: Product) => void) | null;
  onRemove: ((product: Product) => void) | null;
}

function ProductTable({ products, showCost, onEdit, onRemove }: TableProps) {
  return (
    <DataTable label="Products" rows={products} rowKey={(p) => p.id} rowLabel={(p) => p.name} columns={[
      { label: 'Name', kind: 'title', cell: (p) => <><strong>{p.name}</strong>{p.description && <div className="muted">{p.description}</div>}</> },
      { label: 'SKU', cell: (p) => p.sku },
      { label: 'Status', cell: (p) => (p.active ? <span className="badge">Active</span> : <span className="muted">Inactive</span>) },
      { label: 'Prices', cell: (p) => p.prices.map((price) => formatMoney(price.amount, price.currency)).join(', ') },
      showCost && { label: 'Cost', cell: (p) => (p.cost && p.cost_currency ? formatMoney(p.cost, p.cost_currency) : p.cost) },
      onEdit && onRemove && {
        label: 'Actions', kind: 'actions', cell: (p) => (
          <div className="row-actions">
            <button type="button" aria-label={`Edit ${p.name}`} onClick={() => onEdit(p)}>Edit</button>
            <button type="button" className="danger" aria-label={`Delete ${p.name}`} onClick={() => onRemove(p)}>Delete</button>
          </div>
        ),
      },
    ]} />
  );
}
