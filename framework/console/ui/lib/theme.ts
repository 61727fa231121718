/**
 * Colour scheme for the canvases (uPlot draws with colours, not CSS): the page's CSS variables
 * read at chart creation, and a hook that changes when prefers-color-scheme flips, so the charts
 * are created again with the other palette.
 */
import { useEffect, useState } from 'preact/hooks';

const query = (): MediaQueryList => matchMedia('(prefers-color-scheme: dark)');

export function useColorScheme(): 'light' | 'dark' {
  const [dark, setDark] = useState(() => query().matches);
  useEffect(() => {
    const mq = query();
    const onChange = (): void => setDark(mq.matches);
    mq.addEventListener('change', onChange);
    return () => mq.removeEventListener('change', onChange);
  }, []);
  return dark ? 'dark' : 'light';
}

export interface ChartColors {
  text: string;
  grid: string;
  records: string;
  recordsFill: string;
  invocations: string;
  failed: string;
  lag: string;
  lagFill: string;
}

export function chartColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string): string => style.getPropertyValue(name).trim() || fallback;
  return {
    text: v('--muted', '#555'),
    grid: v('--grid', 'rgba(128,128,128,.2)'),
    records: v('--chart-records', '#2563eb'),
    recordsFill: v('--chart-records-fill', 'rgba(37,99,235,.12)'),
    invocations: v('--chart-invocations', '#7c3aed'),
    failed: v('--danger', '#c62828'),
    lag: v('--chart-lag', '#b45309'),
    lagFill: v('--chart-lag-fill', 'rgba(180,83,9,.15)'),
  };
}
