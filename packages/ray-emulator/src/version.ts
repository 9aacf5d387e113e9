// Ray version comparison for the field gates ("2.58.0", "2.9", "3.0.0.dev0"): @rayjob/kube-model's.
import { compareRayVersions } from '@rayjob/kube-model/ray-version';

export const compareVersions = compareRayVersions;

/** Behaviour that changed between Ray versions (ray-jobs-api.md §8), for an emulator pretending an older Ray. */
export interface RayFeatures {
  /** `error_type` populated (~2.50); before, it is always null. */
  errorType: boolean;
  /** `driver_exit_code` in JobDetails and the "Job entrypoint command failed with exit code N" text (~2.8). */
  driverExitCode: boolean;
  /** Browser filter as an allow-list (GET/HEAD/OPTIONS, ~2.54); before, only POST and PUT were refused. */
  browserAllowList: boolean;
}

export function rayFeatures(rayVersion: string): RayFeatures {
  return {
    errorType: compareVersions(rayVersion, '2.50.0') >= 0,
    driverExitCode: compareVersions(rayVersion, '2.8.0') >= 0,
    browserAllowList: compareVersions(rayVersion, '2.54.0') >= 0,
  };
}
