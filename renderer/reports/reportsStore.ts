import { create } from 'zustand';
import type { QueryValue } from '../../shared/bridge.js';
import type { ReportInterval } from '../../shared/resources/report.js';
import { presetRange, type DateRange, type PeriodPreset } from './reportPeriod.js';

/** The Reports screen's filters; kept while the app runs, so leaving and coming back shows the same view. */
interface ReportFilters {
  /** Admins only: a user, or null for the whole team. Agents always see their own (the hub sees to it). */
  ownerId: number | null;
  /** Null: every pipeline (the pipeline report then shows the first one). */
  pipelineId: number | null;
  preset: PeriodPreset;
  range: DateRange;
  interval: ReportInterval;
  set(change: Partial<Pick<ReportFilters, 'ownerId' | 'pipelineId' | 'interval'>>): void;
  choosePreset(preset: PeriodPreset): void;
  setRange(range: DateRange): void;
}

export const useReportFilters = create<ReportFilters>((set) => ({
  ownerId: null,
  pipelineId: null,
  preset: 'last_12_months',
  range: presetRange('last_12_months'),
  interval: 'month',
  set: (change) => set(change),
  // Custom keeps the dates shown, to be edited from there.
  choosePreset: (preset) => set((s) => ({ preset, range: preset === 'custom' ? s.range : presetRange(preset) })),
  setRange: (range) => set({ preset: 'custom', range }),
}));

/** What a report's request carries, by the parameters it takes. */
export interface ReportQueryNeeds {
  pipeline?: 'required' | 'optional';
  period?: boolean;
  interval?: boolean;
}

/** The query of one report: only the filters it takes, only when set (absent owner = the whole team, or one's own). */
export function reportQuery(filters: ReportFilters, needs: ReportQueryNeeds, firstPipelineId: number | null): Record<string, QueryValue> {
  const query: Record<string, QueryValue> = {};
  if (filters.ownerId !== null) query.owner_id = filters.ownerId;
  const pipeline = filters.pipelineId ?? (needs.pipeline === 'required' ? firstPipelineId : null);
  if (needs.pipeline && pipeline !== null) query.pipeline_id = pipeline;
  if (needs.period) Object.assign(query, filters.range);
  if (needs.interval) query.interval = filters.interval;
  return query;
}
