import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { readGlbScene } from "~/thumbnails/read-glb.server";
import { readSplatCloud } from "~/thumbnails/read-splats.server";
import { parseHexColor } from "~/thumbnails/color";
import { DEFAULT_BACKGROUND } from "~/viewer/background";
import { parseImages } from "../colmap-model";
import { spread } from "../frame-selection";
import { EVALUATION_LONG_SIDE, evaluateViews, meanScore, type DeliveredModel, type ModelScore, type ViewScore } from "../evaluation/delivered-quality.server";
import type { StageContext, StageDefinition } from "../stage";
import type { MappingResult } from "./colmap.server";
import type { ExportResult } from "./export.server";
import type { FramesResult } from "./input.server";
import type { SplatResult } from "./splat.server";

/** At most this many views of each split are drawn (evenly spread over the capture): a long video has 35 of each. */
const MAX_VIEWS_PER_SPLIT = 12;
/** Side-by-side pictures (photo | splat | mesh) of every evaluated view, for people and the real-capture bench. */
export const EVALUATION_PICTURES = "evaluation/views";

export interface SplitScores {
  views: number;
  splat: ModelScore | null;
  mesh: ModelScore | null;
}

export interface EvaluationResult {
  registeredRatio: number;
  registeredImages: number;
  totalImages: number;
  meanReprojectionError: number;
  points: number;
  splats: number;
  heldOutFrames: number;
  /** The delivered splat on the test views (what the owner is shown): mean PSNR (dB) and SSIM, null without a view. */
  psnr: number | null;
  ssim: number | null;
  /** Test views drawn. */
  evaluatedViews: number;
  /** Share of the frame the splat covers (0..1, mean over the test views). */
  splatCoverage: number | null;
  /** The delivered textured mesh on the same views, over the whole frame. */
  meshPsnr: number | null;
  meshSsim: number | null;
  meshCoverage: number | null;
  /** The same on the validation views (for tuning; never shown as the scan's quality). */
  validation: SplitScores;
  /** The background the models were drawn on (the viewer's). */
  background: string;
  views: Array<ViewScore & { split: "test" | "validation" }>;
}


/** The published models as viewers decode them: the .sog copy when there is one (else the .ply), and the textured mesh. */
async function deliveredModel(ctx: StageContext): Promise<DeliveredModel> {
  const exported = ctx.results.export as ExportResult;
  const sog = exported.delivery && existsSync(ctx.path("export/model.sog"));
  const splat = await readSplatCloud(new Uint8Array(await readFile(ctx.path(sog ? "export/model.sog" : "export/model.ply"))), sog ? "sog" : "ply");
  // The whole atlas (thumbnails read textures at 1024 px at most).
  const mesh = exported.glb && existsSync(ctx.path("export/mesh.glb")) ? await readGlbScene(new Uint8Array(await readFile(ctx.path("export/mesh.glb"))), { maxTextureSize: 8192 }) : null;
  return { splat, mesh };
}

/**
 * Evaluation (issue 38): the delivered splat and mesh drawn from the test views (the figures the owner sees)
 * and from the validation views (for tuning), over the whole frame on the viewer's background, against the
 * photos undistorted with the scan's camera model.
 */
export const evaluationStage: StageDefinition<EvaluationResult> = {
  name: "evaluation",
  // 2: the delivered models, after export, over the whole frame against undistorted photos (issue 38).
  version: 2,
  outputs: [],
  params: () => ({ longSide: EVALUATION_LONG_SIDE, maxViews: MAX_VIEWS_PER_SPLIT, background: DEFAULT_BACKGROUND }),
  async run(ctx) {
    const frames = ctx.results.frames as FramesResult;
    const mapping = ctx.results.mapping as MappingResult;
    const splat = ctx.results.splat as SplatResult;
    const registered = new Set(parseImages(await readFile(ctx.path("sparse-txt/images.txt"), "utf8")).map((image) => image.name));
    const test = spread(frames.holdout.filter((name) => registered.has(name)), MAX_VIEWS_PER_SPLIT);
    const validation = spread((frames.validation ?? []).filter((name) => registered.has(name)), MAX_VIEWS_PER_SPLIT);
    const result: EvaluationResult = {
      registeredRatio: mapping.total ? Math.round((mapping.registered / mapping.total) * 1000) / 1000 : 0,
      registeredImages: mapping.registered,
      totalImages: mapping.total,
      meanReprojectionError: mapping.meanReprojectionError,
      points: mapping.points,
      splats: splat.splats,
      heldOutFrames: frames.holdout.length,
      psnr: null,
      ssim: null,
      evaluatedViews: 0,
      splatCoverage: null,
      meshPsnr: null,
      meshSsim: null,
      meshCoverage: null,
      validation: { views: 0, splat: null, mesh: null },
      background: DEFAULT_BACKGROUND,
      views: [],
    };
    await rm(ctx.path("evaluation"), { recursive: true, force: true });
    if (test.length + validation.length === 0) return result;
    const model = await deliveredModel(ctx);
    const scores = await evaluateViews({
      images: ctx.path("images"),
      sparse: ctx.path("sparse"),
      names: [...test, ...validation],
      workDir: ctx.path("evaluation/work"),
      model,
      background: parseHexColor(DEFAULT_BACKGROUND),
      pictures: ctx.path(EVALUATION_PICTURES),
      colmap: (args) => ctx.tool({ command: ctx.config.COLMAP_BIN, args, env: { QT_QPA_PLATFORM: "offscreen" } }).then(() => undefined),
      progress: (f) => ctx.progress(f),
    });
    const validationNames = new Set(validation);
    result.views = scores.map((score) => ({ ...score, split: validationNames.has(score.name) ? "validation" : "test" }));
    const of = (split: "test" | "validation") => result.views.filter((v) => v.split === split);
    const splatTest = meanScore(of("test").map((v) => v.splat));
    const meshTest = meanScore(of("test").map((v) => v.mesh));
    Object.assign(result, {
      psnr: splatTest?.psnr ?? null,
      ssim: splatTest?.ssim ?? null,
      evaluatedViews: of("test").length,
      splatCoverage: splatTest?.coverage ?? null,
      meshPsnr: meshTest?.psnr ?? null,
      meshSsim: meshTest?.ssim ?? null,
      meshCoverage: meshTest?.coverage ?? null,
      validation: { views: of("validation").length, splat: meanScore(of("validation").map((v) => v.splat)), mesh: meanScore(of("validation").map((v) => v.mesh)) },
    });
    return result;
  },
};
