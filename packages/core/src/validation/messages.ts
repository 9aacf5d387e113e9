/** The prefixes KubeRay puts in front of most validation messages. */
export const METADATA_INVALID = 'The RayJob metadata is invalid: ';
export const SPEC_INVALID = 'The RayJob spec is invalid: ';
export const STATUS_INVALID = 'The RayJob status is invalid: ';
