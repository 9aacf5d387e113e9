// A submission ID in Ray's own format (`raysubmit_` + 16 characters without look-alikes I, l, o, O, 0), made
// up by the submitter when none is given, so that its own retries look the job up and attach.
const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz123456789';

export function newSubmissionId(): string {
  // node:crypto is loaded here, when an ID is made up, not at start: loading it costs ~10 ms of a cold start
  // (issue #27), and the operator always passes --submission-id.
  const { randomInt } = process.getBuiltinModule('node:crypto');
  let id = 'raysubmit_';
  for (let i = 0; i < 16; i += 1) id += alphabet[randomInt(alphabet.length)];
  return id;
}
