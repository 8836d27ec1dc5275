/** Illustrations for /tutorial (inline SVG, so they scale and need no image requests). */
const INK = "#1f2937";
const ACCENT = "#4f46e5";
const SOFT = "#e0e7ff";
const MUTED = "#6b7280";

function Camera({ x, y, angle }: { x: number; y: number; angle: number }) {
  return (
    <g transform={`translate(${x} ${y}) rotate(${angle})`}>
      <rect x={-9} y={-6} width={18} height={12} rx={2} fill={ACCENT} />
      <polygon points="9,-4 15,-7 15,7 9,4" fill={ACCENT} />
    </g>
  );
}

/** Top view: cameras on a ring around the object, all facing it. */
export function OrbitFigure() {
  const cams = Array.from({ length: 12 }, (_, i) => (i * 360) / 12);
  return (
    <svg viewBox="0 0 320 240" role="img" aria-labelledby="fig-orbit-t" className="tutorial-figure">
      <title id="fig-orbit-t">Top view: walk a full circle around the object, keeping the same distance and pointing the camera at it.</title>
      <circle cx={160} cy={120} r={90} fill="none" stroke={MUTED} strokeDasharray="6 6" />
      <rect x={140} y={100} width={40} height={40} rx={6} fill={SOFT} stroke={INK} />
      <text x={160} y={125} textAnchor="middle" fontSize={11} fill={INK}>object</text>
      {cams.map((deg) => {
        const rad = (deg * Math.PI) / 180;
        return <Camera key={deg} x={160 + 90 * Math.cos(rad)} y={120 + 90 * Math.sin(rad)} angle={deg + 180} />;
      })}
      <path d="M 262 70 A 110 110 0 0 1 270 150" fill="none" stroke={ACCENT} strokeWidth={2} markerEnd="url(#arrow)" />
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX={8} refY={5} markerWidth={6} markerHeight={6} orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" fill={ACCENT} />
        </marker>
      </defs>
    </svg>
  );
}

/** Side view: three rings at different heights. */
export function HeightsFigure() {
  const rings = [
    { y: 190, label: "low, looking slightly up" },
    { y: 130, label: "eye level" },
    { y: 70, label: "high, looking down" },
  ];
  return (
    <svg viewBox="0 0 320 240" role="img" aria-labelledby="fig-heights-t" className="tutorial-figure">
      <title id="fig-heights-t">Side view: circle the object three times, low, at eye level and high, so every side is seen from several angles.</title>
      <line x1={20} y1={215} x2={300} y2={215} stroke={MUTED} />
      <rect x={135} y={150} width={50} height={65} rx={6} fill={SOFT} stroke={INK} />
      {rings.map((r, i) => (
        <g key={r.y}>
          <ellipse cx={160} cy={r.y} rx={120} ry={14} fill="none" stroke={ACCENT} strokeDasharray={i === 1 ? "0" : "5 5"} />
          <Camera x={40} y={r.y} angle={i === 0 ? -10 : i === 2 ? 25 : 0} />
          <text x={300} y={r.y - 18} fontSize={11} fill={INK} textAnchor="end">{r.label}</text>
        </g>
      ))}
    </svg>
  );
}

/** Video frames: 16:9 landscape or portrait, at most 3 minutes. */
export function FrameFigure() {
  return (
    <svg viewBox="0 0 320 200" role="img" aria-labelledby="fig-frame-t" className="tutorial-figure">
      <title id="fig-frame-t">Videos must be 16:9, landscape (1920 by 1080) or portrait (1080 by 1920), and only the first 3 minutes are used.</title>
      <rect x={20} y={40} width={160} height={90} rx={6} fill={SOFT} stroke={INK} />
      <text x={100} y={90} textAnchor="middle" fontSize={14} fill={INK}>16:9</text>
      <rect x={220} y={20} width={68} height={120} rx={6} fill={SOFT} stroke={INK} />
      <text x={254} y={85} textAnchor="middle" fontSize={14} fill={INK}>9:16</text>
      <rect x={20} y={165} width={268} height={10} rx={5} fill="#e5e7eb" />
      <rect x={20} y={165} width={200} height={10} rx={5} fill={ACCENT} />
      <text x={20} y={195} fontSize={11} fill={INK}>0:00</text>
      <text x={220} y={195} textAnchor="middle" fontSize={11} fill={INK}>3:00</text>
      <text x={288} y={195} textAnchor="end" fontSize={11} fill={MUTED}>trimmed</text>
    </svg>
  );
}

/** Lighting: soft, even light versus a hard light with deep shadows. */
export function LightingFigure() {
  return (
    <svg viewBox="0 0 320 200" role="img" aria-labelledby="fig-light-t" className="tutorial-figure">
      <title id="fig-light-t">Good: soft, even light such as an overcast sky. Avoid: one hard light that throws deep shadows, and the camera flash.</title>
      <g>
        <ellipse cx={80} cy={40} rx={50} ry={18} fill="#f3f4f6" stroke={MUTED} />
        <rect x={55} y={100} width={50} height={50} rx={6} fill={SOFT} stroke={INK} />
        <ellipse cx={80} cy={156} rx={34} ry={5} fill="#d1d5db" />
        <text x={80} y={185} textAnchor="middle" fontSize={12} fill="#166534">✓ soft, even</text>
      </g>
      <g>
        <circle cx={215} cy={40} r={14} fill="#fbbf24" />
        <rect x={215} y={100} width={50} height={50} rx={6} fill={SOFT} stroke={INK} />
        <polygon points="265,150 310,160 300,170 250,156" fill="#4b5563" />
        <text x={250} y={185} textAnchor="middle" fontSize={12} fill="#991b1b">✗ hard shadows</text>
      </g>
    </svg>
  );
}

/** Consecutive photos overlap by about two thirds. */
export function OverlapFigure() {
  return (
    <svg viewBox="0 0 320 160" role="img" aria-labelledby="fig-overlap-t" className="tutorial-figure">
      <title id="fig-overlap-t">Each photo should share about two thirds of its view with the previous one.</title>
      {[0, 1, 2].map((i) => (
        <rect key={i} x={30 + i * 60} y={30 + i * 10} width={150} height={90} rx={6} fill={SOFT} fillOpacity={0.7} stroke={i === 1 ? ACCENT : INK} />
      ))}
      <text x={160} y={150} textAnchor="middle" fontSize={12} fill={INK}>≈ 60–70% overlap between neighbours</text>
    </svg>
  );
}
