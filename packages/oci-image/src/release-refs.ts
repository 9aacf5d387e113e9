// The release's last step on the repository: the chart and the kustomize base name the released images by tag
// and digest (`0.2.0@sha256:...`), so an install pulls exactly what was built, signed and scanned. Each edit
// must find its one line, or the release stops (a chart whose layout changed must not be released half-pinned).

export interface ReleaseRefs {
  version: string;
  /** Where the images were pushed, e.g. ghcr.io/rayjob. */
  registry: string;
  operatorDigest: string;
  submitterDigest: string;
}

function replaceOnce(text: string, pattern: RegExp, replacement: string, what: string): string {
  const matches = text.match(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`));
  if (matches?.length !== 1) throw new Error(`${what}: expected one match of ${pattern}, found ${matches?.length ?? 0}`);
  return text.replace(pattern, replacement);
}

export function checkRefs(refs: ReleaseRefs): void {
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(refs.version)) throw new Error(`--version: "${refs.version}" is not X.Y.Z`);
  for (const [flag, digest] of [['--operator-digest', refs.operatorDigest], ['--submitter-digest', refs.submitterDigest]] as const) {
    if (!/^sha256:[0-9a-f]{64}$/.test(digest)) throw new Error(`${flag}: "${digest}" is not sha256:<64 hex digits>`);
  }
  if (!/^[a-z0-9.-]+(:\d+)?(\/[a-z0-9._-]+)*$/.test(refs.registry)) throw new Error(`--registry: "${refs.registry}" is not a registry path such as ghcr.io/rayjob`);
}

const submitterRef = (r: ReleaseRefs): string => `${r.registry}/submitter:${r.version}@${r.submitterDigest}`;

/** values.yaml: image.repository and image.tag (tag@digest), submitterImage. */
export function pinValues(text: string, refs: ReleaseRefs): string {
  let out = replaceOnce(text, /^(image:\n(?:[ \t]*#.*\n)*[ \t]+repository:)[ \t]*\S+[ \t]*$/m, `$1 ${refs.registry}/operator`, 'values.yaml image.repository');
  out = replaceOnce(out, /^(image:\n(?:[ \t]+.*\n)*?[ \t]+tag:)[ \t]*.*$/m, `$1 "${refs.version}@${refs.operatorDigest}"`, 'values.yaml image.tag');
  return replaceOnce(out, /^submitterImage:.*$/m, `submitterImage: ${submitterRef(refs)}`, 'values.yaml submitterImage');
}

/** Chart.yaml: the chart's version and appVersion are the release's. */
export function pinChart(text: string, refs: ReleaseRefs): string {
  const out = replaceOnce(text, /^version:.*$/m, `version: ${refs.version}`, 'Chart.yaml version');
  return replaceOnce(out, /^appVersion:.*$/m, `appVersion: "${refs.version}"`, 'Chart.yaml appVersion');
}

/** kustomization.yaml: the operator image's entry gets newName, newTag and digest. */
export function pinKustomization(text: string, refs: ReleaseRefs): string {
  return replaceOnce(
    text,
    /^([ \t]*)- name: ghcr\.io\/rayjob\/operator\n(?:\1[ \t]+(?:newName|newTag|digest):.*\n?)*/m,
    `$1- name: ghcr.io/rayjob/operator\n$1  newName: ${refs.registry}/operator\n$1  newTag: "${refs.version}"\n$1  digest: ${refs.operatorDigest}\n`,
    'kustomization.yaml images',
  );
}

/** The kustomize base's deployment: --submitter-image. */
export function pinDeployment(text: string, refs: ReleaseRefs): string {
  return replaceOnce(text, /--submitter-image=\S+/, `--submitter-image=${submitterRef(refs)}`, 'deployment.yaml --submitter-image');
}
