/** Runs async tasks with at most `limit` in flight at once; the others wait in call order. */
export interface ConcurrencyLimiter {
  /** Starts `task` once a slot is free; settles like the task. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly waiting: number;
}

export function createConcurrencyLimiter(limit: number): ConcurrencyLimiter {
  if (!Number.isInteger(limit) || limit < 1) throw new Error("The concurrency limit must be a positive integer");
  let active = 0;
  const queue: Array<() => void> = [];

  const release = () => {
    active--;
    const next = queue.shift();
    if (next) next();
  };

  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const start = () => {
          active++;
          let pending: Promise<T>;
          try {
            pending = task();
          } catch (error) {
            pending = Promise.reject(error);
          }
          pending.then(resolve, reject).finally(release);
        };
        if (active < limit) start();
        else queue.push(start);
      });
    },
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}
