/**
 * The job printed this exact line (in a `GET /api/jobs/<id>/logs` answer). The emulator's own "Running
 * entrypoint for job …: <entrypoint>" line also contains the entrypoint's text, so a substring match would fire
 * before the job itself ran (and, e.g., before its trap was set).
 */
export const printedLine = (response: { body: string }, line: string): boolean =>
  (JSON.parse(response.body) as { logs: string }).logs.split('\n').includes(line);
