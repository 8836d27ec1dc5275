import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { KIND_VARIABLE } from "../../app/lib/web-processes.server";

/** Every process's id and parent id (Linux /proc). */
function processTable(): Array<{ pid: number; parent: number }> {
  const table: Array<{ pid: number; parent: number }> = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      table.push({ pid: Number(name), parent: Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/**
 * The processes `pid` started that run server.ts (Linux /proc): the web processes of a server started with
 * WEB_PROCESSES > 1 (or, for tsx's own process, the server it runs) — not, say, the esbuild service tsx starts.
 */
export function serverChildPids(pid: number): number[] {
  return processTable()
    .filter((entry) => entry.parent === pid)
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry.pid}/cmdline`, "utf8").includes("server.ts");
      } catch {
        return false;
      }
    })
    .map((entry) => entry.pid);
}

/** Every process below `pid` (children, their children, …). */
export function descendantPids(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const { pid: child, parent } of processTable()) children.set(parent, [...(children.get(parent) ?? []), child]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** The nice value of each thread of process `pid` (field 19 of /proc/<pid>/task/<tid>/stat: Linux keeps priorities per thread). */
export function threadNiceness(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).map((task) => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
  });
}

/** The kind a supervisor gave web process `pid` ("visitors", "signed-in"; decision 064), from its environment, or null. */
export function webProcessKindOf(pid: number): string | null {
  try {
    const variables = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    return variables.find((variable) => variable.startsWith(`${KIND_VARIABLE}=`))?.split("=")[1] ?? null;
  } catch {
    return null;
  }
}

/** The resident memory of process `pid` in MiB (Linux /proc), or null once it is gone. */
export function residentMiB(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds a process has used, with those of its children it has waited for (children that ended, such as a
 * killed web process its supervisor replaced, or a renderer a web process ran); null once it is gone.
 */
export function cpuSeconds(pid: number): number | null {
  try {
    // The fields after the command name (which may hold spaces, inside parentheses): utime is the 12th, then stime, cutime, cstime.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ").pop()!.split(" ");
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** Seconds the machine's CPUs have been busy (all cores together: everything but idle and I/O wait). */
export function machineBusySeconds(): number {
  const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = ticks;
  return (user + nice + system + irq + softirq + steal) / TICKS_PER_SECOND;
}

/**
 * How many established TCP connections `pid` holds on its local `port` (IPv4 and IPv6): the sockets among its
 * file descriptors that /proc/net/tcp{,6} lists as established (state 01) on that port.
 */
export function establishedConnections(pid: number, port: number): number {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return 0;
  }
  const inodes = new Set<string>();
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // closed meanwhile
    }
  }
  const portHex = port.toString(16).toUpperCase().padStart(4, "0");
  let count = 0;
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      if (fields.length > 9 && fields[1].endsWith(`:${portHex}`) && fields[3] === "01" && inodes.has(fields[9])) count++;
    }
  }
  return count;
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
