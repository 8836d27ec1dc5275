import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Privacy policy — Scanroom" }];

export default function PrivacyPolicy() {
  return (
    <article className="page legal">
      <h1>Privacy policy</h1>
      <p className="legal-updated">Last updated: 1 November 2025</p>
      <p>This policy explains what personal data Scanroom holds, why, and the choices you have.</p>
      <h2>What we collect</h2>
      <ul>
        <li><strong>Account data</strong>: your email address, whether it is verified, your display name and avatar, and your plan.</li>
        <li><strong>Your content</strong>: the videos, photos and model files you upload, the models we make from them, and their names and settings.</li>
        <li><strong>Usage data</strong>: scans you run, credits used, view counts of your models, and technical logs (IP address, browser) kept for security and troubleshooting.</li>
        <li><strong>Messages</strong> you send us through the contact form.</li>
      </ul>
      <h2>Why we use it</h2>
      <ul>
        <li>To run the service: sign-in, storing and processing your uploads, showing your models to the people you choose.</li>
        <li>To apply your plan’s quotas and keep a record of credits.</li>
        <li>To keep the service safe: preventing abuse (including with reCAPTCHA on the contact form) and fixing errors.</li>
      </ul>
      <p>We do not sell your data and we do not show advertising.</p>
      <h2>Who else processes it</h2>
      <ul>
        <li>Google Firebase for sign-in.</li>
        <li>Our cloud storage and hosting providers, which store files and run scans.</li>
        <li>Sentry for error reports, which may include technical details of the request that failed.</li>
        <li>Google reCAPTCHA on the contact form, when enabled.</li>
        <li>Shopify, when you connect a store, for the products you link to models. We never receive your shoppers’ personal data.</li>
      </ul>
      <h2>Cookies and local storage</h2>
      <p>
        We use one session cookie to keep you signed in, and your browser’s local storage for preferences such as the announcements you
        closed and developer mode. We use no tracking cookies.
      </p>
      <h2>How long we keep it</h2>
      <p>
        We keep your data while your account exists. When you delete your account in <Link to="/settings">Settings</Link>, we delete your
        models, their files, your avatar and your sign-in at once; backups expire within 30 days.
      </p>
      <h2>Your rights</h2>
      <p>
        You can see and correct your data in Settings, download your models, and delete everything. Each model’s page has a Download menu
        with every file of it: the file you uploaded, or for a scan the video or photos you took and every model we made from them. Other
        people can download a model’s files only if you allow it on that model (off by default), and never your scan’s video or photos.
        For any other request, such as a copy of your data, <Link to="/contact">contact us</Link>.
      </p>
    </article>
  );
}
