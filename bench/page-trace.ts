// Where a page's main thread and workers spend their time, from a Chrome trace (Playwright's
// browser.startTracing): busy time per thread until a moment, and the main thread's time per cause —
// evaluating or running a script (by file), parsing HTML, style and layout, garbage collection, the rest.
// Used by the viewer bench (issue 20) to say what the embed page waits for before its first frame.

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; frame?: string; isMainFrame?: boolean } };
}

export interface TraceSummary {
  /** ms of main-thread tasks until `untilMs`. */
  mainBusyMs: number;
  /** Main-thread ms per cause (a script's file name, or an activity), largest first. */
  mainByCause: Array<{ cause: string; ms: number }>;
  /** Busy ms of each worker thread of the page until `untilMs`. */
  workers: Array<{ name: string; ms: number }>;
}

const SCRIPT_EVENTS = new Set(["EvaluateScript", "v8.evaluateModule", "FunctionCall", "v8.compile", "v8.compileModule", "TimerFire", "EventDispatch", "FireAnimationFrame"]);
const ACTIVITY: Record<string, string> = {
  ParseHTML: "parse HTML",
  UpdateLayoutTree: "style + layout",
  Layout: "style + layout",
  Paint: "paint",
  MajorGC: "garbage collection",
  MinorGC: "garbage collection",
  "V8.GC_SCAVENGER": "garbage collection",
};

function fileOf(url: string): string {
  const name = url.split("?")[0]!.split("/").pop() || url;
  return name.replace(/-[A-Za-z0-9_-]{8}\.js$/, ".js");
}

/**
 * Summarises `events` of the page's renderer between its navigation (the first request of the
 * document) and `untilMs` later. Each main-thread task goes to the first script or activity found inside it.
 */
export function summarizeTrace(traceJson: string, untilMs: number): TraceSummary {
  const parsed = JSON.parse(traceJson) as { traceEvents: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents;
  const threadNames = new Map<string, string>();
  for (const event of events) if (event.name === "thread_name" && event.args?.name) threadNames.set(`${event.pid}:${event.tid}`, event.args.name);
  const mainKey = [...threadNames.entries()].find(([, name]) => name === "CrRendererMain")?.[0];
  const start = events.find((event) => event.name === "ResourceSendRequest")?.ts ?? events.find((event) => event.ts > 0)?.ts ?? 0;
  const end = start + untilMs * 1000;
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    if (event.ph !== "X" || event.ts < start || event.ts > end) continue;
    const key = `${event.pid}:${event.tid}`;
    if (!byThread.has(key)) byThread.set(key, []);
    byThread.get(key)!.push(event);
  }
  const tasksOf = (list: TraceEvent[]) => list.filter((event) => event.name === "RunTask" || event.name === "ThreadControllerImpl::RunTask");
  const busy = (list: TraceEvent[]) => tasksOf(list).reduce((sum, task) => sum + Math.min(task.dur ?? 0, end - task.ts), 0) / 1000;

  const main = (mainKey && byThread.get(mainKey)) || [];
  const causes = new Map<string, number>();
  const sorted = [...main].sort((a, b) => a.ts - b.ts);
  sorted.forEach((task, index) => {
    if (task.name !== "RunTask" && task.name !== "ThreadControllerImpl::RunTask") return;
    const taskEnd = task.ts + (task.dur ?? 0);
    const inner: TraceEvent[] = [];
    for (let i = index + 1; i < sorted.length && sorted[i]!.ts < taskEnd; i++) inner.push(sorted[i]!);
    const script = inner.find((event) => SCRIPT_EVENTS.has(event.name) && event.args?.data?.url);
    const activity = inner.find((event) => ACTIVITY[event.name]);
    const cause = script ? `script ${fileOf(script.args!.data!.url!)}` : activity ? ACTIVITY[activity.name]! : "other";
    causes.set(cause, (causes.get(cause) ?? 0) + Math.min(task.dur ?? 0, end - task.ts) / 1000);
  });
  const workers = [...byThread.entries()]
    .filter(([key]) => /Worker/i.test(threadNames.get(key) ?? "") && key.split(":")[0] === mainKey?.split(":")[0])
    .map(([key, list]) => ({ name: threadNames.get(key)!, ms: busy(list) }))
    .filter((worker) => worker.ms > 0)
    .sort((a, b) => b.ms - a.ms);
  return {
    mainBusyMs: busy(main),
    mainByCause: [...causes.entries()].map(([cause, ms]) => ({ cause, ms })).sort((a, b) => b.ms - a.ms),
    workers,
  };
}
