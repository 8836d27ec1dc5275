// WEB_PROCESSES + SIGNED_IN_WEB_PROCESSES > 1 (docs/deploy.md): the process started as the server forks that many
// web processes and serves no request itself. It listens on the port, reads each new connection's first request
// head, and hands the connection to a web process of the kind it calls for: visitors' processes at normal CPU
// priority, signed-in work's at a lower one (docs/decisions/064-signed-in-work-in-processes-of-its-own.md); of
// those, to the one holding fewest connections. A web process that becomes ready beside others of its kind gets
// its share of their kept-alive connections (docs/decisions/070). A web process that dies (a crash, the OOM killer, kill -9) is started again by the same policy as
// scripts/start.mjs's children (supervise.mjs) while the others go on answering. SIGTERM and SIGINT are passed on
// to all of them; the listener closes after the shutdown delay, and this process exits once they have all exited.
import type { Serializable } from "node:child_process";
import cluster, { type Worker } from "node:cluster";
import type { Server } from "node:http";
import net, { type Socket } from "node:net";
import { restartPolicy } from "../../scripts/lib/supervise.mjs";
import type { Env } from "../env.server";
import { kindOfRequestHead, readRequestHead, takeHandedConnections, type HandedConnections, type TakenConnections, type WebProcessKind } from "./handed-connections.server";
import { lowerPriorityOfEveryThread } from "./thread-priority.server";

/** The mark of a message a web process sends to all the others (`siblingChannel`), which the supervisor passes on. */
const TO_SIBLINGS = "scanroom:to-siblings";
/** The mark of a connection the supervisor hands a web process; its value is the bytes already read of it. */
const CONNECTION = "scanroom:connection";
/** The mark of a web process's word that it is ready to take connections. */
const READY = "scanroom:ready";
/** The mark of a web process's word of how many connections it has open. */
const OPEN = "scanroom:open";
/** The mark of the supervisor's word to a web process to close its connections beyond the value (decision 070). */
const SHARE_OUT = "scanroom:share-out";
/** A web process tells the supervisor how many connections it has open at most this often. */
const OPEN_REPORT_MS = 250;
/** How long a connection waits for a web process of its kind (being started or replaced) before another kind takes it. */
const WAIT_FOR_KIND_MS = 5_000;
/** The environment variables that tell a web process its kind and its nice value. */
export const KIND_VARIABLE = "SCANROOM_WEB_PROCESS_KIND";
const NICE_VARIABLE = "SCANROOM_WEB_PROCESS_NICE";
/** "<slot>/<count>" in a web process of a kind that has several: which of them it is (a replacement takes its predecessor's). */
const SLOT_VARIABLE = "SCANROOM_WEB_PROCESS_SLOT";
/** "1" in every web process of a supervisor that sorts connections (visitors' and signed-in processes both). */
const SORTED_VARIABLE = "SCANROOM_WEB_PROCESSES_SORTED";

/** The value under `mark` of a message between the supervisor and its web processes; undefined for any other message. */
function marked(message: unknown, mark: string): unknown {
  return message && typeof message === "object" && mark in message ? (message as Record<string, unknown>)[mark] : undefined;
}

interface WaitingConnection {
  socket: Socket;
  /** What the supervisor read of it. */
  head: Buffer;
  kind: WebProcessKind;
  /** When it was ready to be handed on (ms since the epoch). */
  since: number;
}

export interface WebProcessPlan {
  /** Web processes for visitors' requests, at normal priority. */
  visitors: number;
  /** Web processes for signed-in work (and anything not a visitor's GET), at `signedInNice`. */
  signedIn: number;
  /** The nice value (0–19) of the signed-in processes' every thread. */
  signedInNice: number;
  port: number;
  /** On SIGTERM, how long the listener stays open (readiness answering 503 meanwhile); SIGINT closes it at once. */
  shutdownDelayMs: number;
}

/** The web processes `config` asks for: signed-in work gets one process of its own once there are several. */
export function webProcessPlan(config: Pick<Env, "WEB_PROCESSES" | "SIGNED_IN_WEB_PROCESSES" | "SIGNED_IN_NICE" | "PORT" | "SHUTDOWN_DELAY_SECONDS">): WebProcessPlan {
  return {
    visitors: config.WEB_PROCESSES,
    signedIn: config.SIGNED_IN_WEB_PROCESSES ?? (config.WEB_PROCESSES > 1 ? 1 : 0),
    signedInNice: config.SIGNED_IN_NICE,
    port: config.PORT,
    shutdownDelayMs: config.SHUTDOWN_DELAY_SECONDS * 1000,
  };
}

/**
 * What this web process tells the other web processes on its port, and hears from them, on `topic`: through the
 * supervisor, which passes each message on to every other web process. Null where there are none (one web
 * process, or a process that is not one of several).
 */
export function siblingChannel<T>(topic: string): { send: (body: T) => void; listen: (receive: (body: T) => void) => void } | null {
  if (!cluster.isWorker || !process.send) return null;
  return {
    // With a callback, a closed channel (the supervisor gone) is an error passed to it, not an 'error' event that would end this process.
    send: (body) => void process.send?.({ [TO_SIBLINGS]: topic, body }, undefined, {}, () => {}),
    listen: (receive) =>
      void process.on("message", (message: { body: T } | null) => {
        if (marked(message, TO_SIBLINGS) === topic) receive(message!.body);
      }),
  };
}

/** The kind of this web process when the supervisor started it (null in a process that serves alone). */
export function webProcessKind(): WebProcessKind | null {
  const kind = cluster.isWorker ? process.env[KIND_VARIABLE] : undefined;
  return kind === "visitors" || kind === "signed-in" ? kind : null;
}

/**
 * Which of its kind's web processes this one is (0 ≤ slot < of), when the supervisor started several of that kind:
 * they share out work they would otherwise all do, such as warming up (decisions 068, 069). Null otherwise.
 */
export function webProcessSlot(): { slot: number; of: number } | null {
  const match = webProcessKind() ? /^(\d+)\/(\d+)$/.exec(process.env[SLOT_VARIABLE] ?? "") : null;
  if (!match) return null;
  const [slot, of] = [Number(match[1]), Number(match[2])];
  return slot < of ? { slot, of } : null;
}

/**
 * Whether this process relays the follow-ups the domain commits to the job queue and works the queues it feeds
 * (thumbnails, delivery copies, storefront syncs: app/jobs/outbox-relay.server.ts). Every process does, except a
 * visitors' process beside signed-in ones: that work follows creators' uploads and edits, and runs at their priority.
 */
export function worksFollowUps(): boolean {
  return !(webProcessKind() === "visitors" && process.env[SORTED_VARIABLE] === "1");
}

/** In a web process started by the supervisor: takes its kind's CPU priority, first thing, so that even its start-up yields to visitors. */
export function takeWebProcessPriority(): void {
  const nice = webProcessKind() ? Number(process.env[NICE_VARIABLE] ?? 0) : 0;
  if (nice > 0) lowerPriorityOfEveryThread(nice);
}

/**
 * In a web process started by the supervisor: serves with `server` every connection the supervisor hands it, and
 * tells the supervisor it is ready. Null in a process that serves alone (it listens itself).
 */
export function serveHandedConnections(server: Server): HandedConnections | null {
  const kind = webProcessKind();
  if (!process.send || !kind) return null;
  const tell = (message: Serializable) => process.send?.(message, undefined, {}, () => {});
  // How many connections are open, told to the supervisor (which hands new ones to the process with fewest), at most
  // every OPEN_REPORT_MS.
  let reportDue: NodeJS.Timeout | null = null;
  const connections = takeHandedConnections(server, () => {
    reportDue ??= setTimeout(() => {
      reportDue = null;
      tell({ [OPEN]: connections.open() });
    }, OPEN_REPORT_MS).unref();
  });
  process.on("message", (message: unknown, socket?: Socket) => {
    const head = marked(message, CONNECTION);
    if (head instanceof Uint8Array && socket) return connections.give(socket, head);
    const share = marked(message, SHARE_OUT);
    if (isShareOut(share)) shareOut(connections, share);
  });
  tell({ [READY]: kind });
  return connections;
}

/**
 * What the supervisor tells each web process of a kind when another of that kind becomes ready: the others'
 * connections, as far as it knows them, and how many processes share them all.
 */
interface ShareOut {
  others: number;
  peers: number;
}

function isShareOut(value: unknown): value is ShareOut {
  const share = value as Partial<ShareOut> | null;
  return typeof share?.others === "number" && typeof share.peers === "number" && share.peers > 0;
}

/**
 * Brings this process's connections down to its share, each beyond it closed after its next answer: their clients
 * connect again, and the supervisor hands those connections to a web process that has fewer (decision 070). Its own
 * count is its own, exact: the supervisor's lags by up to OPEN_REPORT_MS, and counts connections that have closed
 * since (decision 074).
 */
function shareOut(connections: TakenConnections, { others, peers }: ShareOut): void {
  const staying = connections.staying();
  const keep = Math.ceil((staying + others) / peers);
  if (staying <= keep) return;
  connections.keepAtMost(keep);
  process.stderr.write(`[scanroom] closing ${staying - keep} of ${staying} connections after their next answer, to share them with a new web process (web process ${process.pid})\n`);
}

/**
 * Supervises the web processes of `plan` when there are more than one and this is the primary process; returns
 * whether it does (false in a web process, and with one web process: then the caller listens and serves).
 */
export function superviseWebProcesses(plan: WebProcessPlan, log = (line: string) => void process.stderr.write(`${line}\n`)): boolean {
  if (plan.visitors + plan.signedIn <= 1 || !cluster.isPrimary) return false;
  const policy = restartPolicy();
  /**
   * Each web process's kind, when it was started, whether it has said it is ready, and its connections: how many
   * it last said were open, and how many it has been handed since it said so.
   */
  const processes = new Map<Worker, { kind: WebProcessKind; slot: number; startedAt: number; ready: boolean; open: number; handedSince: number }>();
  const load = (state: { open: number; handedSince: number }) => state.open + state.handedSince;
  /** Connections that came while no web process of their kind was ready (at start, or while one is replaced). */
  let waiting: WaitingConnection[] = [];
  let turn = 0;
  let stopping = false;
  // Structured clone, not JSON, for what web processes tell each other (rendered pages: long strings).
  cluster.setupPrimary({ serialization: "advanced" });

  /** The ready web processes (of `kind`, where given). */
  const serving = (kind?: WebProcessKind) => [...processes].filter(([worker, state]) => state.ready && worker.isConnected() && (!kind || state.kind === kind));
  /**
   * A ready web process for `kind`: the one with fewest connections, in turn among equals. With none of that kind
   * ready (one being started or replaced), one of the other kind once `anyKind`: a keep-alive connection stays where
   * it is handed, so it is not given away at once.
   */
  const pick = (kind: WebProcessKind, anyKind: boolean): Worker | undefined => {
    const own = serving(kind);
    const pool = own.length > 0 || !anyKind ? own : serving();
    if (pool.length === 0) return undefined;
    const fewest = Math.min(...pool.map(([, state]) => load(state)));
    const least = pool.filter(([, state]) => load(state) === fewest);
    const [worker, state] = least[turn++ % least.length];
    state.handedSince++;
    return worker;
  };
  const hand = (connection: WaitingConnection) => {
    const { socket, head, kind, since } = connection;
    if (socket.destroyed) return;
    const worker = pick(kind, Date.now() - since >= WAIT_FOR_KIND_MS);
    if (!worker) {
      waiting.push(connection);
      setTimeout(() => {
        const at = waiting.indexOf(connection);
        if (at < 0) return;
        waiting.splice(at, 1);
        hand(connection);
      }, WAIT_FOR_KIND_MS);
      return;
    }
    // A web process that exits meanwhile never gets it: the connection is closed, as a crash would close it.
    worker.send({ [CONNECTION]: head }, socket, {}, (error: Error | null) => error && socket.destroy());
  };

  const sorting = plan.signedIn > 0 && plan.visitors > 0;
  const listener = net.createServer({ pauseOnConnect: true }, (socket) => {
    // A client that resets before its connection is handed on only ends that connection.
    socket.on("error", () => socket.destroy());
    if (!sorting) return hand({ socket, head: Buffer.alloc(0), kind: "visitors", since: Date.now() });
    void readRequestHead(socket).then((head) => (head ? hand({ socket, head, kind: kindOfRequestHead(head), since: Date.now() }) : socket.destroy()));
  });
  listener.once("error", (error) => {
    log(`[scanroom] cannot listen on port ${plan.port}: ${error.message}`);
    process.exit(1);
  });
  // The web processes start once the port is ours: a port in use ends the server here, with that message alone.
  listener.listen(plan.port, () => {
    for (let slot = 0; slot < plan.visitors; slot++) fork("visitors", slot);
    for (let slot = 0; slot < plan.signedIn; slot++) fork("signed-in", slot);
  });

  cluster.on("message", (from, message: Serializable) => {
    const started = processes.get(from);
    const open = marked(message, OPEN);
    if (started && typeof open === "number") {
      started.open = open;
      started.handedSince = 0;
      return;
    }
    if (started && marked(message, READY) !== undefined) {
      started.ready = true;
      shareOutFor(started.kind);
      const held = waiting;
      waiting = [];
      for (const connection of held) hand(connection);
      return;
    }
    if (marked(message, TO_SIBLINGS) === undefined) return;
    for (const worker of Object.values(cluster.workers ?? {})) {
      // A web process that exits meanwhile misses it (the callback takes the error instead of an 'error' event).
      if (worker && worker !== from && worker.isConnected()) worker.send(message, undefined, {}, () => {});
    }
  });
  /**
   * When a web process of `kind` becomes ready beside others (a replacement, or the later of two starting), the
   * others' keep-alive connections would stay where they are for as long as their clients keep them: each one
   * holding more than its share has those beyond it closed after their next answer, and their clients' new
   * connections go to the process with fewest (decision 070). Each is told the others' connections and works out its
   * share with its own count (decision 074).
   */
  const shareOutFor = (kind: WebProcessKind) => {
    const peers = serving(kind);
    const total = peers.reduce((sum, [, state]) => sum + load(state), 0);
    for (const [worker, state] of peers) {
      const share: ShareOut = { others: total - load(state), peers: peers.length };
      if (load(state) > 0) worker.send({ [SHARE_OUT]: share }, undefined, {}, () => {});
    }
  };
  const fork = (kind: WebProcessKind, slot: number) => {
    const nice = kind === "signed-in" ? plan.signedInNice : 0;
    const of = kind === "signed-in" ? plan.signedIn : plan.visitors;
    const env = { [KIND_VARIABLE]: kind, [NICE_VARIABLE]: String(nice), [SORTED_VARIABLE]: sorting ? "1" : "0", [SLOT_VARIABLE]: `${slot}/${of}` };
    processes.set(cluster.fork(env), { kind, slot, startedAt: Date.now(), ready: false, open: 0, handedSince: 0 });
  };
  cluster.on("exit", (worker, code, signal) => {
    const { kind, slot, startedAt } = processes.get(worker) ?? { kind: "visitors" as const, slot: 0, startedAt: Date.now() };
    processes.delete(worker);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const { delayMs } = policy.afterExit(Date.now() - startedAt);
    log(`[scanroom] web process ${worker.process.pid} (${kind}) exited (${code ?? signal}); starting another in ${delayMs / 1000} s`);
    setTimeout(() => !stopping && fork(kind, slot), delayMs);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => listener.close(), signal === "SIGTERM" ? plan.shutdownDelayMs : 0);
    for (const { socket } of waiting) socket.destroy();
    waiting = [];
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill(signal);
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  return true;
}
