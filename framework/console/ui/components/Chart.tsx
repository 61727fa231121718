/**
 * A uPlot chart that lives as long as its component: created once (and again only when the
 * colour scheme flips or its options change), fed new data in place with setData, and resized with
 * its container through a ResizeObserver. The canvas is hidden from assistive technology; the
 * caption says the latest values in words.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { chartColors, useColorScheme, type ChartColors } from '../lib/theme.ts';

export type ChartOptions = (size: { width: number; height: number }, colors: ChartColors) => uPlot.Options;

interface Props {
  data: uPlot.AlignedData;
  /** Keep it stable (module-level): a new function creates the chart again. */
  options: ChartOptions;
  height: number;
  testid: string;
  caption: string;
}

export function Chart({ data, options, height, testid, caption }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(data);
  latest.current = data;
  const scheme = useColorScheme();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = (): number => Math.max(120, Math.floor(el.clientWidth));
    const u = new uPlot(options({ width: width(), height }, chartColors()), latest.current, el);
    plot.current = u;
    const resize = new ResizeObserver(() => {
      if (el.clientWidth > 0 && width() !== u.width) u.setSize({ width: width(), height });
    });
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [options, height, scheme]);

  useEffect(() => {
    const u = plot.current;
    if (u && u.data !== data) u.setData(data);
  }, [data]);

  return (
    <figure class="chart">
      <figcaption>{caption}</figcaption>
      <div class="chart-box" ref={box} data-testid={testid} aria-hidden="true" />
    </figure>
  );
}
