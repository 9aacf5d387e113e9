/**
 * KubeRay's CheckName, used for the names it derives from a cluster's (auth Secret, the autoscaler's
 * ServiceAccount, Role and RoleBinding): at most 50 characters, dropping leading ones (generated Pod names add
 * up to 13), and a first character that is a digit or punctuation replaced by `r`.
 */
export function clipName(name: string): string {
  let clipped = name.length > 50 ? name.slice(name.length - 50) : name;
  if (clipped && /^[\p{Nd}\p{P}]/u.test(clipped)) clipped = `r${clipped.slice(1)}`;
  return clipped;
}
