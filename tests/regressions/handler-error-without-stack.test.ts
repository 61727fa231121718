/**
 * A handler's error printed its message only: the stack was captured in the worker and dropped,
 * and the bundle's source maps were registered too late to map it. The failed chunk now carries
 * the stack, mapped to the handler's TypeScript file and line, and the terminal prints it.
 */
import { afterAll, expect, it } from 'vitest';
import { startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topic = uniqueName('stack');
let h: Harness | undefined;
afterAll(async () => {
  await h?.stop();
  await deleteTopic(topic);
});

it("a handler's error carries its stack, naming the .ts file and line", async () => {
  await createTopic(topic, 1);
  await produce(topic, [{ value: 'v0' }]);
  h = await startRecorder({ topic, env: { POISON_OFFSETS: '0' } });
  const stacks: string[] = [];
  h.events.on('poller.chunk_end', (e) => void (e.stack && stacks.push(e.stack)));
  await waitFor('a failed chunk', () => stacks.length > 0);
  console.log(`[stack] ${stacks[0]!.split('\n').slice(0, 3).join(' | ')}`);
  expect(stacks[0]).toMatch(/poison record among offsets 0\n\s+at handler \(.*tests\/fixtures\/functions\/recorder\.ts:\d+:\d+\)/);
});
