// The `/api/jobs/<id>/logs/tail` WebSocket after the upgrade (ray-jobs-api.md §3.8): silent while PENDING
// (no pings), replay from the start of the file, frames at the tailer's 1 s cadence, close 1000 after the
// job is terminal, no status frame. With permessage-deflate negotiated, real Ray sends no log frame and
// closes 1000 a few seconds later (observed, 2.58): reproduced so that clients offering it fail here too.
import type WebSocket from 'ws';
import { chunkLogText } from './log-chunks.ts';
import { isTerminal, type JobManager } from './job-manager.ts';
import type { EmulatorTiming } from './timing.ts';

export interface OpenTail {
  submissionId: string;
  socket: WebSocket;
}

export function createTailHub(deps: {
  jobs: JobManager;
  timing: EmulatorTiming;
  dropLastChunk: () => boolean;
}) {
  const open = new Set<OpenTail>();
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());
  const isOpen = (s: WebSocket) => s.readyState === 1;

  function closeNormal(tail: OpenTail): void {
    open.delete(tail);
    if (isOpen(tail.socket)) tail.socket.close(1000);
  }

  async function stream(tail: OpenTail): Promise<void> {
    const { socket, submissionId } = tail;
    // Wait for the driver address, checking every tailAddressPollMs, without sending anything.
    for (;;) {
      if (!isOpen(socket)) return;
      const job = deps.jobs.get(submissionId);
      if (!job || (isTerminal(job.status) && job.driverAgentHttpAddress === null)) return closeNormal(tail);
      if (job.driverAgentHttpAddress !== null) break;
      await sleep(deps.timing.tailAddressPollMs);
    }
    let offset = 0;
    let held: string | undefined; // dropLastLogChunk fault: the newest chunk waits until a newer one exists
    for (;;) {
      if (!isOpen(socket)) return;
      const job = deps.jobs.get(submissionId);
      // Status first, then the file: a terminal status read before the final read means nothing is missed.
      const terminal = !job || isTerminal(job.status);
      const text = deps.jobs.rawLog(submissionId);
      const fresh = chunkLogText(text.slice(offset));
      offset = text.length;
      for (const chunk of fresh) {
        if (deps.dropLastChunk()) {
          if (held !== undefined) socket.send(held);
          held = chunk;
        } else {
          if (held !== undefined) socket.send(held);
          held = undefined;
          socket.send(chunk);
        }
      }
      if (!deps.dropLastChunk() && held !== undefined) {
        socket.send(held);
        held = undefined;
      }
      if (terminal) return closeNormal(tail); // a held chunk is dropped here (ray#46413)
      await sleep(deps.timing.logPollMs);
    }
  }

  return {
    /** Takes over an upgraded socket for a known submission. */
    attach(submissionId: string, socket: WebSocket, deflateNegotiated: boolean, agentDown: boolean): void {
      const tail: OpenTail = { submissionId, socket };
      open.add(tail);
      socket.on('close', () => open.delete(tail));
      socket.on('error', () => open.delete(tail));
      socket.on('message', () => undefined); // client -> server messages are ignored
      if (agentDown) {
        // JobHead cannot reach the driver's agent and ends the stream normally.
        closeNormal(tail);
        return;
      }
      if (deflateNegotiated) {
        setTimeout(() => closeNormal(tail), deps.timing.deflateTailCloseMs).unref();
        return;
      }
      void stream(tail);
    },
    /** JobHead restart, or the agent of these jobs' node died: clean 1000 closes. */
    closeWhere(predicate: (tail: OpenTail) => boolean): void {
      for (const tail of [...open]) if (predicate(tail)) closeNormal(tail);
    },
    count: () => open.size,
  };
}

export type TailHub = ReturnType<typeof createTailHub>;
