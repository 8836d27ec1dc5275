// Linux keeps a CPU priority (nice value) per thread: setting the process's only changes its main thread. A process
// that lowers its own priority sets every thread it has; threads it starts later inherit their starter's.
import { readdirSync } from "node:fs";
import { setPriority } from "node:os";

/** Lowers the CPU priority of every thread of this process to `nice` (0–19; raising it back needs privileges). */
export function lowerPriorityOfEveryThread(nice: number): void {
  let threads: number[];
  try {
    threads = readdirSync("/proc/self/task").map(Number);
  } catch {
    // Not Linux: the process's priority is all there is.
    threads = [0];
  }
  for (const thread of threads) {
    try {
      setPriority(thread, nice);
    } catch {
      // A thread that ended meanwhile.
    }
  }
}
