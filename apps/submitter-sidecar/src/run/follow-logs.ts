// Printing a job's log exactly once across reconnects. Ray's tail replays the log file from its start on every
// connection (ray-jobs-api.md §3.8), so the printer counts the UTF-8 bytes printed so far and, on a new
// connection, skips that many bytes of the replay. At the end, GET /logs fills in what the stream never
// delivered (ray#46413), again only past what was printed.

export interface LogPrinter {
  /** Call before each new tail connection. */
  newConnection(): void;
  /** A frame as the tail delivered it. */
  onChunk(chunk: string): void;
  /** The whole log (GET /logs): prints what lies beyond what was printed. */
  complete(fullLog: string): void;
  printedBytes(): number;
}

export function createLogPrinter(write: (text: string) => void): LogPrinter {
  let printed = 0; // bytes of the job's log already written
  let received = 0; // bytes received on the current connection

  function printBeyond(text: string, startsAt: number): void {
    const bytes = Buffer.from(text, 'utf8');
    const end = startsAt + bytes.length;
    if (end <= printed) return;
    const fresh = bytes.subarray(Math.max(0, printed - startsAt));
    printed = end;
    write(fresh.toString('utf8'));
  }

  return {
    newConnection() {
      received = 0;
    },
    onChunk(chunk) {
      const startsAt = received;
      received += Buffer.byteLength(chunk, 'utf8');
      printBeyond(chunk, startsAt);
    },
    complete(fullLog) {
      printBeyond(fullLog, 0);
    },
    printedBytes: () => printed,
  };
}
