// The ErrImagePull message for an image the sandbox has no program for: it says how to map one.

import { imageRepository } from '@rayjob/kube-model';

export function unmappedImageMessage(image: string): string {
  const repo = imageRepository(image) || image;
  return (
    `failed to pull and unpack image "${image}": the sandbox runs images as local programs and has none for "${repo}"; ` +
    `map it with \`rayjob-sandbox up --image ${repo}=COMMAND\` (npm start -- --image ${repo}=COMMAND) or the images option of startSandbox`
  );
}
