/**
 * The real-Ray tier's rule: it runs wherever the package mirror exists. It is skipped, with
 * `skipped: <why>`, only when the mirror is absent; a failure to provision or to start a head
 * is a test failure, never a skip.
 */
import { describe, it } from 'vitest';
import { provisionRay, type Provisioning } from '../real-head/provision.ts';

export async function realTier(): Promise<Provisioning> {
  const provisioning = await provisionRay();
  if (provisioning.kind === 'skipped') console.log(`skipped: ${provisioning.reason}`);
  return provisioning;
}

export function describeRealTier(provisioning: Provisioning, name: string, body: () => void): void {
  if (provisioning.kind === 'skipped') {
    describe.skip(`${name} (skipped: ${provisioning.reason})`, body);
  } else if (provisioning.kind === 'failed') {
    describe(name, () => {
      it('provisions the Ray virtualenv (tools/ray/provision.sh)', () => {
        throw new Error(`tools/ray/provision.sh failed:\n${provisioning.output}`);
      });
    });
  } else {
    describe(name, body);
  }
}
