import { LICENSE_INFO, type License } from "~/domain/item-details";

/** A model's licence as the model page shows it: its name (linked to its text) and what it allows (issue 35 item 4). */
export function LicenseNote({ license, testId }: { license: License; testId?: string }) {
  const info = LICENSE_INFO[license];
  return (
    <p className="license-note" data-testid={testId} data-license={license}>
      <i className="pi pi-id-card" aria-hidden="true" /> Licence:{" "}
      {info.url ? (
        <a href={info.url} rel="license noopener noreferrer" target="_blank">
          {info.label}
        </a>
      ) : (
        <strong>{info.label}</strong>
      )}{" "}
      — {info.summary}
    </p>
  );
}
