import { appendFile, mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { Checkpoints } from "./checkpoints.server";
import type { WorkerConfig } from "~/env.server";
import { manifestMatches, outputsHash, stageInputHash, type StageManifest } from "./manifest";
import { groupAlive, killGroup, runTool, ToolError } from "~/tools/run-tool.server";
import type { StageName } from "~/domain/scan-progress";
import type { StageContext, StageDefinition, ScanJobInput } from "./stage";
import { featuresStage, mappingStage, matchingStage, type MappingResult } from "./stages/colmap.server";
import { denseStage } from "./stages/dense.server";
import { exportStage } from "./stages/export.server";
import { meshStage } from "./stages/mesh.server";
import { framesStage, ingestStage } from "./stages/input.server";
import { evaluationStage } from "./stages/evaluation.server";
import { splatStage } from "./stages/splat.server";

/** The stages with manifests, in order (publish follows, in app/worker/outcome.server.ts). */
export const PIPELINE: StageDefinition[] = [
  ingestStage,
  framesStage,
  featuresStage,
  matchingStage,
  mappingStage,
  denseStage,
  meshStage,
  splatStage,
  exportStage,
  evaluationStage,
] as StageDefinition[];

export interface StageTiming {
  seconds: number;
  /** Finished by an earlier run of this job (its manifest matched), not run again now. */
  skipped: boolean;
  /** The lease (ScanJob.attempts) the stage ran under. */
  attempt: number;
}

export interface PipelineReporter {
  /** A stage starts (or is found finished). */
  stage(name: StageName): Promise<void> | void;
  /** The running stage's own progress, 0–1. */
  progress(name: StageName, fraction: number): void;
}

export type PipelineOutcome =
  | { kind: "finished"; results: Partial<Record<StageName, unknown>>; timings: Partial<Record<StageName, StageTiming>>; checkpoints: Checkpoints }
  | { kind: "gate_failed"; mapping: MappingResult; results: Partial<Record<StageName, unknown>>; timings: Partial<Record<StageName, StageTiming>>; checkpoints: Checkpoints };

/** The job's working folder. */
export function jobDir(config: WorkerConfig, jobId: string) {
  return path.join(config.workDir, jobId);
}

const PID_FILE = "tools.pids";

/**
 * Tools started by a worker that was killed (-9) keep running in their own process groups. Before a
 * job runs again on this machine, the groups recorded in its working folder are stopped, so an
 * orphaned matcher cannot go on writing into files the new run uses.
 */
export async function stopOrphanedTools(dir: string): Promise<number> {
  let text = "";
  try {
    text = await readFile(path.join(dir, PID_FILE), "utf8");
  } catch {
    return 0;
  }
  let stopped = 0;
  for (const pid of new Set(text.split("\n").map(Number).filter((n) => n > 1))) {
    if (pid === process.pid || !groupAlive(pid)) continue;
    killGroup(pid, "SIGKILL");
    stopped++;
  }
  await rm(path.join(dir, PID_FILE), { force: true });
  return stopped;
}

/**
 * Runs the stages of one job in its working folder. Each stage whose manifest matches its inputs is
 * skipped (its files restored from storage when missing here); each that runs stores its outputs
 * and then its manifest. Throws ToolError/ScanFailure/other errors; stops at the quality gate.
 */
export async function runStages(input: {
  job: ScanJobInput;
  config: WorkerConfig;
  signal: AbortSignal;
  reporter: PipelineReporter;
  /** Absolute deadline for the whole job (ms since epoch). */
  deadline?: number;
  /** Stop after this stage (tests and benches that need only the first stages). */
  until?: StageName;
}): Promise<PipelineOutcome> {
  const { job, config, signal, reporter } = input;
  const dir = jobDir(config, job.id);
  await mkdir(dir, { recursive: true });
  await stopOrphanedTools(dir);
  const checkpoints = new Checkpoints(job.itemId, dir);
  const results: Partial<Record<StageName, unknown>> = {};
  const timings: Partial<Record<StageName, StageTiming>> = {};
  const sources = new Map<string, string>();
  let upstream = `${job.inputKind}:${job.inputPath}`;

  for (const stage of PIPELINE) {
    if (signal.aborted) throw new ToolError("cancelled", "aborted", null, "");
    const stageStarted = Date.now();
    const stageDeadline = Math.min(stageStarted + config.SCAN_STAGE_TIMEOUT_SECONDS * 1000, input.deadline ?? Number.POSITIVE_INFINITY);
    let scope = "";
    const ctx: StageContext = {
      job,
      config,
      dir,
      path: (relative) => path.join(dir, ...relative.split("/")),
      signal,
      results,
      sources,
      progress: (fraction) => reporter.progress(stage.name, fraction),
      checkpoint: {
        save: (relative) => checkpoints.saveMidStage(scope, relative),
        restore: (relative) => checkpoints.restoreMidStage(scope, relative),
      },
      native: (program) => path.join(path.resolve(config.SCANROOM_NATIVE_BIN), program),
      tool: (options) => {
        const left = stageDeadline - Date.now();
        if (left <= 0) throw new ToolError(`the ${stage.name} stage ran out of time`, "timeout", null, "");
        return runTool({
          ...options,
          signal,
          killGraceMs: config.SCAN_KILL_GRACE_SECONDS * 1000,
          timeoutMs: Math.min(options.timeoutMs ?? Number.POSITIVE_INFINITY, left),
          onSpawn: (pid) => void appendFile(path.join(dir, PID_FILE), `${pid}\n`).catch(() => undefined),
        });
      },
    };
    const params = await stage.params(ctx);
    const inputHash = stageInputHash({ stage: stage.name, version: stage.version, params, upstream });
    scope = `${stage.name}-${inputHash.slice(0, 16)}`;
    const existing = await checkpoints.readManifest(stage.name);
    if (manifestMatches(existing, stage.name, inputHash)) {
      await reporter.stage(stage.name);
      await checkpoints.restoreOutputs(existing);
      results[stage.name] = existing.result;
      timings[stage.name] = { seconds: existing.seconds, skipped: true, attempt: existing.attempt };
      upstream = existing.outputHash;
      reporter.progress(stage.name, 1);
    } else {
      await reporter.stage(stage.name);
      const result = await stage.run(ctx);
      const outputs = await checkpoints.storeOutputs(stage.outputs, sources);
      const seconds = Math.round((Date.now() - stageStarted) / 100) / 10;
      const manifest: StageManifest = {
        stage: stage.name,
        version: stage.version,
        inputHash,
        outputs,
        outputHash: outputsHash(outputs, result),
        result,
        seconds,
        attempt: job.attempt,
        finishedAt: new Date().toISOString(),
      };
      // A cancelled or superseded run must not record work it may not have finished.
      if (signal.aborted) throw new ToolError("cancelled", "aborted", null, "");
      await checkpoints.writeManifest(manifest);
      results[stage.name] = result;
      timings[stage.name] = { seconds, skipped: false, attempt: job.attempt };
      upstream = manifest.outputHash;
    }
    if (stage.name === "mapping") {
      const mapping = results.mapping as MappingResult;
      if (!mapping.gate.passed) return { kind: "gate_failed", mapping, results, timings, checkpoints };
    }
    if (stage.name === input.until) break;
  }
  return { kind: "finished", results, timings, checkpoints };
}
