/** A tiny inline SVG line of a partition's lag history (oldest first), scaled to its own maximum. */

const W = 100;
const H = 24;

export function Sparkline({ values, label }: { values: number[]; label: string }) {
  if (values.length < 2) return <span class="muted">—</span>;
  const max = Math.max(...values, 1);
  const step = W / (values.length - 1);
  const y = (v: number): number => H - 1 - (Math.max(0, v) / max) * (H - 2);
  const line = values.map((v, i) => `${(i * step).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const area = `0,${H} ${line} ${W},${H}`;
  return (
    <svg class="spark" viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" role="img" aria-label={label}>
      <title>{label}</title>
      <polygon class="spark-area" points={area} />
      <polyline class="spark-line" points={line} vector-effect="non-scaling-stroke" />
    </svg>
  );
}
