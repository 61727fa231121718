/**
 * Global setup of the `engines` tier: the librdkafka engine's binding must have built. It is an
 * optional dependency, so `npm install` leaves it out without a word when it cannot build (offline
 * and without the headers it needs): the tier then stops with one line saying what to install. And
 * it must carry Sluice's patch (infra/patches/librdkafka.mjs: the bounds the tiers assert), which
 * only a binding built from source can: a prebuilt one stops the tier saying how to build it.
 */
import { SluiceError } from '../../framework/errors.ts';
import { INSTALL_HINT, RDKAFKA_PACKAGE, loadRdkafka, rdkafkaPatch } from '../../framework/kafka/rdkafka/client.ts';

export default function setup(): void {
  try {
    loadRdkafka('npm run test:engines');
  } catch {
    throw new SluiceError('PREREQUISITE_MISSING', `The engines tier runs the suite on librdkafka, and ${RDKAFKA_PACKAGE} is not installed: ${INSTALL_HINT}.`);
  }
  const patch = rdkafkaPatch();
  if (!patch.patched) throw new SluiceError('PREREQUISITE_MISSING', `The engines tier runs the suite on librdkafka with Sluice's bounds, and ${patch.why}.`);
}
