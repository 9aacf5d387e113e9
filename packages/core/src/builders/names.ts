/** Kubernetes' `rand.String` alphabet (no vowels, no confusable digits), which KubeRay uses for name suffixes. */
export const NAME_SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
export const NAME_SUFFIX_LENGTH = 5;

/** `random` is a source in [0, 1) (Math.random's contract), injected so decisions are reproducible. */
export function randomSuffix(random: () => number, length = NAME_SUFFIX_LENGTH): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    const index = Math.min(NAME_SUFFIX_ALPHABET.length - 1, Math.floor(random() * NAME_SUFFIX_ALPHABET.length));
    out += NAME_SUFFIX_ALPHABET[index];
  }
  return out;
}

/** `<rayjob-name>-<5 chars>`: the RayCluster name and the generated submission ID of one attempt. */
export function generatedName(base: string, random: () => number): string {
  return `${base}-${randomSuffix(random)}`;
}
