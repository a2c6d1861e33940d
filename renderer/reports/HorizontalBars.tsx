import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { COLORS, TICK } from './chartTheme.js';

export interface HorizontalBarsProps {
  /** One bar per item: `label` names it on the category axis, `value` is its length. */
  data: { label: string; value: number }[];
  /** The series' name, in the tooltip ("Deals lost", "Value"). */
  name: string;
  fill: string;
  /** The height of one bar's row, in pixels; the chart grows with the number of bars. */
  rowHeight: number;
  /** The category axis' width: room for the labels. */
  labelWidth: number;
  valueTick: (value: number) => string;
  /** How the tooltip writes a value (money in its currency); the plain number otherwise. */
  valueText?: (value: number) => string;
  allowDecimals?: boolean;
}

/** A bar per item, laid out sideways so long names (loss reasons, products) read on a phone. */
export function HorizontalBars({ data, name, fill, rowHeight, labelWidth, valueTick, valueText, allowDecimals = true }: HorizontalBarsProps) {
  return (
    <ResponsiveContainer width="100%" height={Math.max(120, data.length * rowHeight + 40)}>
      <BarChart data={data} layout="vertical" margin={{ top: 4, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <CartesianGrid horizontal={false} stroke={COLORS.grid} />
        <XAxis type="number" tick={TICK} tickFormatter={valueTick} allowDecimals={allowDecimals} />
        <YAxis type="category" dataKey="label" tick={TICK} width={labelWidth} />
        <Tooltip formatter={valueText && ((v, series) => [valueText(Number(v)), series])} />
        <Bar dataKey="value" name={name} fill={fill} isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
