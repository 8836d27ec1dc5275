import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { FrameFigure, HeightsFigure, LightingFigure, OrbitFigure, OverlapFigure } from "~/components/tutorial-figures";

export const meta: MetaFunction = () => [
  { title: "Tutorial: capture a great 3D scan — Scanroom" },
  { name: "description", content: "How to film or photograph an object so Scanroom can turn it into a 3D model." },
];

export default function Tutorial() {
  return (
    <article className="page tutorial">
      <h1>How to capture a great 3D scan</h1>
      <p className="explore-lead">
        Scanroom rebuilds an object or a place from many views of it. The better the views, the better the model. This guide takes about five
        minutes to read and will save you failed scans.
      </p>
      <nav aria-label="On this page" className="tutorial-toc">
        <ol>
          <li><a href="#choose">Video or photos?</a></li>
          <li><a href="#subject">Choose the subject and the place</a></li>
          <li><a href="#light">Light</a></li>
          <li><a href="#move">Move around the object</a></li>
          <li><a href="#camera">Camera settings</a></li>
          <li><a href="#upload">Upload and wait</a></li>
          <li><a href="#failed">When a scan fails</a></li>
        </ol>
      </nav>

      <section id="choose" className="tutorial-step">
        <h2>1. Video or photos?</h2>
        <div className="tutorial-row">
          <div>
            <p><strong>A video</strong> is the quickest way. It must be <strong>16:9</strong>, either landscape or portrait (a phone held upright works). Up to <strong>3 minutes</strong> are used: a longer video is trimmed to its first 3 minutes. We pick the sharpest frames for you.</p>
            <p><strong>A photo set</strong> gives the most detail. Upload between <strong>20 and 300 photos</strong> of the same object at once (JPEG, PNG, WebP or HEIC). More photos help with large or detailed subjects; 60–150 is a good range for an object on a table.</p>
            <p>Either way, one scan costs one scan credit from your plan.</p>
          </div>
          <FrameFigure />
        </div>
      </section>

      <section id="subject" className="tutorial-step">
        <h2>2. Choose the subject and the place</h2>
        <ul>
          <li>Matte, textured objects scan best: shoes, plants, sculptures, food, furniture.</li>
          <li>Avoid glass, mirrors, chrome and very shiny or transparent surfaces; a thin matte spray or a cloth over reflections helps.</li>
          <li>The subject must not move. Pets and people need to stay perfectly still.</li>
          <li>Give it space so you can walk all the way around it. A textured surface underneath (a newspaper, a patterned rug) helps the reconstruction find its bearings; a plain white table does not.</li>
        </ul>
      </section>

      <section id="light" className="tutorial-step">
        <h2>3. Light</h2>
        <div className="tutorial-row">
          <div>
            <ul>
              <li>Use soft, even light: an overcast day outside, or a bright room with several lamps.</li>
              <li>Avoid direct sun and single spotlights: hard shadows move as you walk and confuse the reconstruction.</li>
              <li>Turn the flash off, and keep the light the same for the whole capture.</li>
            </ul>
          </div>
          <LightingFigure />
        </div>
      </section>

      <section id="move" className="tutorial-step">
        <h2>4. Move around the object</h2>
        <div className="tutorial-row">
          <div>
            <p>Walk slowly in a full circle around the object, keeping it in the middle of the frame and staying at about the same distance. Do not zoom: move closer instead.</p>
            <p>Go around <strong>three times</strong>: once low, once at eye level and once from above, so the top and the lower sides are covered too.</p>
          </div>
          <OrbitFigure />
        </div>
        <div className="tutorial-row">
          <HeightsFigure />
          <div>
            <p>For photos, take a picture every few steps so that each photo shares about two thirds of its view with the previous one. Blurry photos are worse than none: hold still for each shot.</p>
            <p>For video, move slowly and smoothly (a full circle should take at least 20 seconds) to avoid motion blur.</p>
          </div>
        </div>
        <OverlapFigure />
      </section>

      <section id="camera" className="tutorial-step">
        <h2>5. Camera settings</h2>
        <ul>
          <li>Use the main (1×) lens at its highest resolution; on a phone, 4K or 1080p video at 30 frames per second is plenty.</li>
          <li>Lock focus and exposure (press and hold on the subject on most phones) so the brightness does not change between views.</li>
          <li>Clean the lens. Fingerprints make every frame soft.</li>
        </ul>
      </section>

      <section id="upload" className="tutorial-step">
        <h2>6. Upload and wait</h2>
        <p>
          Sign in, press <strong>New Model</strong> in the header and drop your video or all your photos at once. A scan takes about 20–40
          minutes; you can close the page. Follow its progress on <Link to="/dashboard">My Dashboard</Link>, and the bell in the header tells you
          when it is done. Then make the model public to show it on Explore, or share it with a link or an embed code.
        </p>
        <p>Already have a model file? Upload a .glb, .ply, .ksplat, .spz, .splat or .sog file the same way; it is ready to view at once.</p>
      </section>

      <section id="failed" className="tutorial-step">
        <h2>7. When a scan fails</h2>
        <p>
          If too few views could be matched, the scan fails with advice on what to change, and the scan credit is given back. The usual causes
          are motion blur, a shiny or plain subject, too little overlap between views, or a subject that moved. Capture again with the tips
          above, or <Link to="/contact">ask us</Link> and we will look at it with you.
        </p>
      </section>
    </article>
  );
}
