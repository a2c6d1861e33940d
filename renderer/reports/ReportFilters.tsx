import { cloneElement, useId, useState, type ReactElement } from 'react';
import type { Pipeline } from '../../shared/resources/deal.js';
import type { User } from '../../shared/resources/user.js';
import { REPORT_INTERVALS, type ReportInterval } from '../../shared/resources/report.js';
import { useReportFilters } from './reportsStore.js';
import { PERIOD_PRESETS, PRESET_LABELS, type DateRange, type PeriodPreset } from './reportPeriod.js';

const INTERVAL_LABELS: Record<ReportInterval, string> = { month: 'Month', week: 'Week' };

interface Props {
  /** Null for an agent: they see their own data only, so there is nobody to choose. */
  users: User[] | null;
  pipelines: Pipeline[];
}

/** Whose data, which pipeline, which period and how it is grouped: every report below follows these. */
export function ReportFilters({ users, pipelines }: Props) {
  const filters = useReportFilters();
  return (
    <div className="card report-filters" role="group" aria-label="Report filters">
      {users ? (
        <Field label="Owner">
          <select value={filters.ownerId ?? ''} onChange={(e) => filters.set({ ownerId: e.target.value ? Number(e.target.value) : null })}>
            <option value="">Whole team</option>
            {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
          </select>
        </Field>
      ) : (
        <div className="report-filter-static"><span>Owner</span><strong>My data</strong></div>
      )}
      <Field label="Pipeline">
        <select value={filters.pipelineId ?? ''} onChange={(e) => filters.set({ pipelineId: e.target.value ? Number(e.target.value) : null })}>
          <option value="">All pipelines</option>
          {pipelines.map((p) => <option key={p.id} value={p.id}>{p.name}</option>)}
        </select>
      </Field>
      <Field label="Period">
        <select value={filters.preset} onChange={(e) => filters.choosePreset(e.target.value as PeriodPreset)}>
          {PERIOD_PRESETS.map((p) => <option key={p} value={p}>{PRESET_LABELS[p]}</option>)}
        </select>
      </Field>
      {filters.preset === 'custom' && <CustomDates range={filters.range} onChange={filters.setRange} />}
      <Field label="Group by">
        <select value={filters.interval} onChange={(e) => filters.set({ interval: e.target.value as ReportInterval })}>
          {REPORT_INTERVALS.map((i) => <option key={i} value={i}>{INTERVAL_LABELS[i]}</option>)}
        </select>
      </Field>
    </div>
  );
}

/** From and to dates; applied once both are valid and in order, so a half-typed date never reaches the reports. */
function CustomDates({ range, onChange }: { range: DateRange; onChange(range: DateRange): void }) {
  const [draft, setDraft] = useState(range);
  const ordered = draft.from !== '' && draft.to !== '' && draft.from <= draft.to;
  const edit = (change: Partial<DateRange>) => {
    const next = { ...draft, ...change };
    setDraft(next);
    if (next.from && next.to && next.from <= next.to) onChange(next);
  };
  return (
    <>
      <Field label="From">
        <input type="date" value={draft.from} max={draft.to || undefined} aria-invalid={!ordered} onChange={(e) => edit({ from: e.target.value })} />
      </Field>
      <Field label="To">
        <input type="date" value={draft.to} min={draft.from || undefined} aria-invalid={!ordered} onChange={(e) => edit({ to: e.target.value })} />
      </Field>
      {!ordered && <span className="field-error" role="alert">Choose a start date on or before the end date.</span>}
    </>
  );
}

/** A label over its control, tied by id (a label wrapped around a select would take the options' text into its name). */
function Field({ label, children }: { label: string; children: ReactElement<{ id?: string }> }) {
  const id = useId();
  return (
    <div className="report-filter">
      <label htmlFor={id}>{label}</label>
      {cloneElement(children, { id })}
    </div>
  );
}
