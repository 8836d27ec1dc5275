/**
 * The quality gate after mapping (DESIGN §5): at least 80 % of the images registered, a mean
 * reprojection error of at most 1.5 px and at least 2,000 points. A scan that misses any of them
 * fails with advice a person can act on, and its credit is released. Pure.
 */
export const QUALITY_GATE = { minRegisteredRatio: 0.8, maxReprojectionError: 1.5, minPoints: 2000 } as const;

export interface MappingFigures {
  inputKind: "video" | "image";
  registered: number;
  total: number;
  meanReprojectionError: number;
  points: number;
}

export type GateCheck = "registration" | "reprojection" | "points";

export interface GateOutcome {
  passed: boolean;
  failed: GateCheck[];
  /** What went wrong, in figures (null when passed). */
  error: string | null;
  /** What to do differently next time (null when passed). */
  advice: string | null;
}

export const ADVICE = {
  registrationVideo:
    "Move slower and keep the object in view the whole time: quick turns blur the frames and break the chain between them.",
  registrationImages:
    "Take the photos with more overlap: step around the object about 10–15° between shots, so every part appears in at least three photos.",
  points:
    "Add more light and texture: scan in bright, even light, and stand the object on a patterned surface (a newspaper or a printed cloth) so there is detail to match.",
  reprojection:
    "Hold the camera steadier and keep the zoom fixed: blur, fast motion and zooming make the views disagree.",
} as const;

const number = (n: number) => n.toLocaleString("en-US");

export function evaluateQualityGate(figures: MappingFigures): GateOutcome {
  const failed: GateCheck[] = [];
  const errors: string[] = [];
  const advice: string[] = [];
  const ratio = figures.total > 0 ? figures.registered / figures.total : 0;
  if (ratio < QUALITY_GATE.minRegisteredRatio) {
    failed.push("registration");
    errors.push(
      `Only ${figures.registered} of ${figures.total} ${figures.inputKind === "video" ? "frames" : "images"} could be placed (at least ${Math.round(QUALITY_GATE.minRegisteredRatio * 100)}% are needed).`,
    );
    advice.push(figures.inputKind === "video" ? ADVICE.registrationVideo : ADVICE.registrationImages);
  }
  if (figures.points < QUALITY_GATE.minPoints) {
    failed.push("points");
    errors.push(`Only ${number(figures.points)} 3D points were found (at least ${number(QUALITY_GATE.minPoints)} are needed).`);
    advice.push(ADVICE.points);
  }
  // With nothing registered there is no error to speak of: the first failure says it all.
  if (figures.registered > 0 && !(figures.meanReprojectionError <= QUALITY_GATE.maxReprojectionError)) {
    failed.push("reprojection");
    errors.push(
      `The views disagree by ${figures.meanReprojectionError.toFixed(2)} px on average (at most ${QUALITY_GATE.maxReprojectionError} px is allowed).`,
    );
    advice.push(ADVICE.reprojection);
  }
  if (failed.length === 0) return { passed: true, failed, error: null, advice: null };
  return { passed: false, failed, error: errors.join(" "), advice: advice.join(" ") };
}
