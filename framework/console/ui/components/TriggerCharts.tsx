/**
 * A trigger's two charts: throughput (records/s on the left axis; invocations and failed
 * invocations per bucket on the right) and lag (the sum of its partitions' lag histories).
 */
import { useMemo } from 'preact/hooks';
import type uPlot from 'uplot';
import type { ThroughputSample, TriggerView } from '../../api-types.ts';
import { clock, count, rate } from '../lib/format.ts';
import type { ChartColors } from '../lib/theme.ts';
import { Chart, type ChartOptions } from './Chart.tsx';

const BUCKET_MS = 5000;
const HEIGHT = 150;

function bucketMs(samples: ThroughputSample[]): number {
  const [a, b] = samples;
  return a && b && b.t > a.t ? b.t - a.t : BUCKET_MS;
}

const fromZero: uPlot.Scale.Range = (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1];

/** Time: at least a minute wide, so one or two samples (a run that just started) still get a readable axis. */
const aMinuteAtLeast: uPlot.Scale.Range = (_u, min, max) => (max - min >= 60 ? [min, max] : [max - 60, max]);

/** Time ticks in 24-hour local time: HH:MM, or HH:MM:SS when the ticks fall within minutes. */
const timeTicks = (_u: uPlot, splits: number[]): string[] => {
  const withSeconds = splits.some((s) => Math.round(s) % 60 !== 0);
  return splits.map((s) => clock(s * 1000).slice(0, withSeconds ? 8 : 5));
};

function axis(colors: ChartColors, extra: uPlot.Axis = {}): uPlot.Axis {
  return {
    stroke: colors.text,
    font: '11px system-ui, sans-serif',
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1, size: 4 },
    ...extra,
  };
}

function base(size: { width: number; height: number }): Pick<uPlot.Options, 'width' | 'height' | 'cursor' | 'legend'> {
  return { ...size, cursor: { drag: { x: false, y: false } }, legend: { show: true, live: true } };
}

/** A legend value: the hovered point's, or the newest one when the cursor is elsewhere. */
const latest =
  (format: (v: number) => string) =>
  (u: uPlot, v: number | null, series: number, idx: number | null): string => {
    const value = idx == null ? u.data[series]?.at(-1) : v;
    return value == null ? '—' : format(value);
  };

const timeSeries: uPlot.Series = { label: 'time', value: latest((v) => clock(v * 1000)) };
const number = latest(rate);

const throughputOptions: ChartOptions = (size, c) => ({
  ...base(size),
  scales: { x: { time: true, range: aMinuteAtLeast }, rps: { range: fromZero }, inv: { range: fromZero } },
  axes: [axis(c, { values: timeTicks }), axis(c, { scale: 'rps', size: 44 }), axis(c, { scale: 'inv', side: 1, size: 40, grid: { show: false } })],
  series: [
    timeSeries,
    { label: 'records/s', scale: 'rps', stroke: c.records, fill: c.recordsFill, width: 1.5, value: number },
    { label: 'invocations', scale: 'inv', stroke: c.invocations, width: 1.5, value: number },
    { label: 'failed', scale: 'inv', stroke: c.failed, width: 1.5, dash: [4, 3], value: number },
  ],
});

const lagOptions: ChartOptions = (size, c) => ({
  ...base(size),
  scales: { x: { time: true, range: aMinuteAtLeast }, y: { range: fromZero } },
  axes: [axis(c, { values: timeTicks }), axis(c, { size: 50 })],
  series: [timeSeries, { label: 'lag', stroke: c.lag, fill: c.lagFill, width: 1.5, value: latest(count) }],
});

export function ThroughputChart({ trigger }: { trigger: TriggerView }) {
  const samples = trigger.throughput;
  const data = useMemo<uPlot.AlignedData>(() => {
    const per = bucketMs(samples) / 1000;
    return [
      samples.map((s) => s.t / 1000),
      samples.map((s) => s.records / per),
      samples.map((s) => s.invocations),
      samples.map((s) => s.failed),
    ];
  }, [samples]);
  const last = samples.at(-1);
  const caption = last
    ? `Throughput — ${rate(last.records / (bucketMs(samples) / 1000))} records/s, ${count(last.invocations)} invocations in the last bucket`
    : 'Throughput — no samples yet';
  return <Chart data={data} options={throughputOptions} height={HEIGHT} testid={`chart-throughput-${trigger.function}`} caption={caption} />;
}

/** The partitions' lag histories summed, aligned on their newest bucket. */
export function lagSeries(trigger: TriggerView, now: number): [number[], number[]] {
  const length = Math.max(0, ...trigger.partitions.map((p) => p.lagHistory.length));
  const sums = Array.from({ length }, (_, i) =>
    trigger.partitions.reduce((sum, p) => sum + (p.lagHistory[p.lagHistory.length - length + i] ?? 0), 0),
  );
  const samples = trigger.throughput;
  const step = bucketMs(samples);
  const end = samples.at(-1)?.t ?? now;
  const times = sums.map((_, i) => (end - (length - 1 - i) * step) / 1000);
  return [times, sums];
}

export function LagChart({ trigger, now }: { trigger: TriggerView; now: number }) {
  const data = useMemo<uPlot.AlignedData>(() => lagSeries(trigger, now), [trigger, now]);
  const total = trigger.partitions.reduce((sum, p) => sum + p.lag, 0);
  return (
    <Chart data={data} options={lagOptions} height={HEIGHT} testid={`chart-lag-${trigger.function}`} caption={`Lag — ${count(total)} records now`} />
  );
}
