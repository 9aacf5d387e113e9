// Container image references ("[registry[:port]/]path[:tag][@digest]"), split the way a kubelet and a registry
// client read them: the tag is after the last ':' that follows the last '/', so a registry port is not a tag.

export interface ImageReference {
  /** Everything before the tag and digest, e.g. "localhost:5000/rayproject/ray". */
  repository: string;
  tag?: string;
  /** e.g. "sha256:…". */
  digest?: string;
}

export function parseImageReference(image: string): ImageReference {
  const at = image.indexOf('@');
  const name = at >= 0 ? image.slice(0, at) : image;
  const digest = at >= 0 ? image.slice(at + 1) : undefined;
  const colon = name.lastIndexOf(':');
  const hasTag = colon > name.lastIndexOf('/');
  return {
    repository: hasTag ? name.slice(0, colon) : name,
    ...(hasTag && { tag: name.slice(colon + 1) }),
    ...(digest !== undefined && { digest }),
  };
}

/** The repository of an image reference: no tag, no digest. */
export function imageRepository(image: string): string {
  return parseImageReference(image).repository;
}
