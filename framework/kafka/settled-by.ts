/**
 * True once `work` settled (either way), false if `deadlineAt` (epoch ms) came first. The work
 * is not cancelled (kafkajs calls cannot be called back); the timer is always cleared.
 */
export async function settledBy(work: Promise<unknown>, deadlineAt: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), Math.max(0, deadlineAt - Date.now()))));
  try {
    return await Promise.race([work.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
