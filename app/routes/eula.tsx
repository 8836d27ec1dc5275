import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "End-user licence agreement — Scanroom" }];

const UPDATED = "1 November 2025";

export default function Eula() {
  return (
    <article className="page legal">
      <h1>End-user licence agreement</h1>
      <p className="legal-updated">Last updated: {UPDATED}</p>
      <p>
        This agreement is between you and Scanroom and covers your use of the Scanroom website, its API, its embeddable viewer and its
        Shopify app (together, “the service”). By creating an account or uploading content you accept it. If you use the service for an
        organisation, you accept it on the organisation’s behalf.
      </p>
      <h2>1. Your account</h2>
      <p>
        You must give a valid email address and keep your sign-in details safe. You are responsible for what happens under your account.
        You may delete your account at any time from <Link to="/settings">Settings</Link>; this deletes your models and files.
      </p>
      <h2>2. Your content</h2>
      <p>
        You keep all rights in the videos, photos and model files you upload and in the 3D models made from them. You give us the
        permission we need to store, process, convert and display them to run the service: privately for private models, to anyone with
        the link for unlisted ones, and publicly (including on Explore and your profile) for public ones. This permission ends when you
        delete the content, except for copies kept for a limited time in backups.
      </p>
      <p>
        You confirm that you have the right to upload your content and that it does not infringe anyone’s rights or show people without
        their consent. Do not upload unlawful, hateful or sexually explicit content. We may unpublish or remove content that breaks these
        rules and will tell you why.
      </p>
      <h2>3. Plans, scans and credits</h2>
      <p>
        Plans give a monthly number of scans, links, annotations and embeds, listed on <Link to="/pricing">Pricing</Link>. Monthly quotas
        reset at the start of each billing period and do not carry over; top-up credits do not expire. A scan uses one credit; a scan that
        fails on our side gives its credit back.
      </p>
      <h2>4. Acceptable use</h2>
      <p>
        Do not try to break, overload or get around the limits of the service, access other people’s private models, or use the API to
        copy the service. Automated use through the API with your own sign-in token is allowed within your plan’s limits.
      </p>
      <h2>5. The service</h2>
      <p>
        We work to keep the service available and your models safe, but we provide it “as is”. 3D reconstruction depends on the capture:
        we cannot promise that every video or photo set produces a model. We may change features with reasonable notice.
      </p>
      <h2>6. Liability</h2>
      <p>
        To the extent the law allows, our total liability for any claim is limited to the amount you paid us in the twelve months before
        the claim. Nothing in this agreement limits liability that cannot be limited by law.
      </p>
      <h2>7. Changes and contact</h2>
      <p>
        We will announce material changes to this agreement on the site before they take effect. Questions? Use the{" "}
        <Link to="/contact">contact form</Link>. See also our <Link to="/privacy-policy">privacy policy</Link>.
      </p>
    </article>
  );
}
