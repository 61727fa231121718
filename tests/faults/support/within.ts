/**
 * A step of a fault scenario that must end in time: a hang (a member's stop that never returns,
 * a node that never starts) fails the scenario loudly, naming the step and what the process was
 * still waiting on, instead of stalling the tier until CI's own timeout.
 */
export async function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not end within ${ms} ms; still open: ${openResources()}`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What keeps the event loop busy, counted by kind (sockets, timers, child processes...). */
function openResources(): string {
  const counts = new Map<string, number>();
  for (const r of process.getActiveResourcesInfo()) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].map(([r, n]) => `${n} ${r}`).join(', ');
}
