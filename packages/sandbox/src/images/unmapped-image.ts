// The ErrImagePull message for an image the sandbox has no program for: it says how to map one.

/** The repository part of an image reference (no tag, no digest). */
export function imageRepository(image: string): string {
  const withoutDigest = image.split('@')[0] ?? image;
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  return colon > slash ? withoutDigest.slice(0, colon) : withoutDigest;
}

export function unmappedImageMessage(image: string): string {
  const repo = imageRepository(image) || image;
  return (
    `failed to pull and unpack image "${image}": the sandbox runs images as local programs and has none for "${repo}"; ` +
    `map it with \`rayjob-sandbox up --image ${repo}=COMMAND\` (npm start -- --image ${repo}=COMMAND) or the images option of startSandbox`
  );
}
