/**
 * The librdkafka engine's client library, @confluentinc/kafka-javascript, an optional
 * dependency: loaded only when a trigger asks for `engine: librdkafka`, and when it is missing
 * the error says exactly what to install (its prebuilt binary needs the internet; a source build
 * against the system's libraries needs their headers).
 */
import { createRequire } from 'node:module';
import type * as Rdkafka from '@confluentinc/kafka-javascript';
import { ConfigError } from '../../errors.ts';
import { bindingPatch, handBoundsToBinding, type PatchState } from './patched.ts';

export type RdkafkaModule = typeof Rdkafka;

export const RDKAFKA_PACKAGE = '@confluentinc/kafka-javascript';
export const RDKAFKA_VERSION = '1.10.1';

export const INSTALL_HINT =
  `npm install ${RDKAFKA_PACKAGE}@${RDKAFKA_VERSION} (it downloads a prebuilt librdkafka; without internet access, build it against the system's libraries: ` +
  'on Debian/Ubuntu apt-get install libssl-dev zlib1g-dev libzstd-dev liblz4-dev libsasl2-dev libcurl4-openssl-dev, then ' +
  `CKJS_LINKING=dynamic npm install ${RDKAFKA_PACKAGE}@${RDKAFKA_VERSION}; on macOS brew install librdkafka openssl, or use the prebuilt binary)`;

let loaded: RdkafkaModule | undefined;

/** The binding, or a ConfigError naming the trigger that asked for it and what to install. */
export function loadRdkafka(askedBy: string): RdkafkaModule {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  handBoundsToBinding();
  try {
    loaded = require(RDKAFKA_PACKAGE) as RdkafkaModule;
    return loaded;
  } catch (e) {
    throw new ConfigError(`${askedBy}: engine librdkafka needs ${RDKAFKA_PACKAGE}, which is not installed or did not build (${(e as Error).message.split('\n')[0]}). Install it: ${INSTALL_HINT}.`);
  }
}

let patch: PatchState | undefined;
/** Whether the binding carries Sluice's bounds (patched.ts); asked once a process. */
export const rdkafkaPatch = (): PatchState => (patch ??= bindingPatch(RDKAFKA_PACKAGE));
