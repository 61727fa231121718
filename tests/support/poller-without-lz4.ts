/**
 * `npm start`, but with kafkajs's LZ4 codec taken away until the file named by LZ4_FIX_FILE
 * exists: a poller whose consumer crashes with a non-retriable error on every lz4 batch (as any
 * poller did before Sluice registered the codecs), and that a test can then mend. Test-only:
 * the product has no such switch.
 */
import { existsSync } from 'node:fs';
import kafkajs from 'kafkajs';
import { codecs } from '../../framework/kafka/codecs/index.ts';

const { CompressionCodecs, CompressionTypes } = kafkajs;
const KafkaJSNotImplemented = kafkajs.KafkaJSNotImplemented as unknown as new (message: string) => Error;
// What kafkajs ships for LZ4: a codec that throws its non-retriable "not implemented".
CompressionCodecs[CompressionTypes.LZ4] = () => {
  throw new KafkaJSNotImplemented('LZ4 compression not implemented');
};
const fix = process.env.LZ4_FIX_FILE;
const timer = setInterval(() => {
  if (fix && existsSync(fix)) {
    CompressionCodecs[CompressionTypes.LZ4] = () => codecs.lz4;
    clearInterval(timer);
  }
}, 100);
timer.unref();

await import('../../framework/cli/start.ts');
