// Which dashboard address wins, as in Ray's CLI: RAY_API_SERVER_ADDRESS, then RAY_ADDRESS (the environment beats
// the flag), then --address, then KubeRay's RAY_DASHBOARD_ADDRESS. An empty value counts as unset.
import { SubmitterEnv } from '@rayjob/core';

export interface AddressSources {
  flag: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}

export type ChosenAddress = { address: string; source: string } | undefined;

export function chooseAddress({ flag, env }: AddressSources): ChosenAddress {
  const candidates: Array<[string, string | undefined]> = [
    [SubmitterEnv.apiServerAddress, env[SubmitterEnv.apiServerAddress]],
    [SubmitterEnv.rayAddress, env[SubmitterEnv.rayAddress]],
    ['--address', flag],
    [SubmitterEnv.dashboardAddress, env[SubmitterEnv.dashboardAddress]],
  ];
  for (const [source, value] of candidates) {
    if (value !== undefined && value.trim() !== '') return { address: value.trim(), source };
  }
  return undefined;
}
