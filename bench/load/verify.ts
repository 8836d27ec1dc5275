// What the load bench checks after a run: every upload the site acknowledged downloads byte-identical (through
// the product, GET /v1/item/{id}/file?original=true, XOR undone), and every creator's scan credits add up:
// each scan in the database paid exactly once, no payment without a scan, every acknowledged scan there, and
// the balance the site shows is the grant less the scans.
import { createHash } from "node:crypto";
import pg from "pg";
import { xorInPlace, xorKeyFromString } from "~/lib/xor";
import type { AcknowledgedUpload, CreatorAccount, ScanRequest } from "./creators";

export interface UploadCheck {
  checked: number;
  identical: number;
  problems: string[];
}

export async function checkUploads({
  origin,
  uploads,
  tokenOf,
  xorKey,
}: {
  origin: string;
  uploads: AcknowledgedUpload[];
  tokenOf: (owner: CreatorAccount) => Promise<string>;
  xorKey: string;
}): Promise<UploadCheck> {
  const key = xorKeyFromString(xorKey);
  const check: UploadCheck = { checked: 0, identical: 0, problems: [] };
  let next = 0;
  const lane = async () => {
    while (next < uploads.length) {
      const upload = uploads[next++];
      const res = await fetch(`${origin}/v1/item/${upload.itemId}/file?original=true`, {
        headers: { Authorization: `Bearer ${await tokenOf(upload.owner)}` },
      });
      check.checked++;
      if (!res.ok || !res.body) {
        check.problems.push(`${upload.itemId}: download answered ${res.status}`);
        await res.arrayBuffer().catch(() => undefined);
        continue;
      }
      const hash = createHash("sha256");
      let offset = 0;
      const reader = res.body.getReader();
      for (let part = await reader.read(); !part.done; part = await reader.read()) {
        hash.update(xorInPlace(part.value, key, offset));
        offset += part.value.length;
      }
      if (offset === upload.size && hash.digest("hex") === upload.sha256) check.identical++;
      else
        check.problems.push(
          `${upload.itemId}: ${offset} bytes downloaded, ${upload.size} uploaded, ${offset === upload.size ? "different bytes" : "different size"}`,
        );
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  return check;
}

export interface CreditCheck {
  creators: number;
  scansInDatabase: number;
  acknowledged: number;
  answersLost: number;
  problems: string[];
}

export async function checkCredits({
  origin,
  databaseUrl,
  accounts,
  scans,
  grantedOf,
  tokenOf,
}: {
  origin: string;
  databaseUrl: string;
  accounts: CreatorAccount[];
  scans: ScanRequest[];
  /** Each creator's total_scan_credit before the run. */
  grantedOf: (owner: CreatorAccount) => number;
  tokenOf: (owner: CreatorAccount) => Promise<string>;
}): Promise<CreditCheck> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const check: CreditCheck = {
    creators: accounts.length,
    scansInDatabase: 0,
    acknowledged: scans.filter((s) => s.acknowledged).length,
    answersLost: scans.filter((s) => s.answerLost).length,
    problems: [],
  };
  try {
    for (const owner of accounts) {
      const jobs = (
        await client.query<{
          id: string;
          itemId: string;
          reservationRef: string | null;
        }>('SELECT id, "itemId", "reservationRef" FROM "ScanJob" WHERE "userId" = $1', [owner.userId])
      ).rows;
      check.scansInDatabase += jobs.length;
      const spends = (
        await client.query<{
          reference: string;
          amount: number;
          entries: number;
        }>(
          `SELECT reference, SUM(amount)::int AS amount, COUNT(*)::int AS entries FROM "LedgerEntry"
           WHERE "userId" = $1 AND "creditType" = 'scan' AND kind = 'reservation' GROUP BY reference`,
          [owner.userId],
        )
      ).rows;
      const spendOf = new Map(spends.map((s) => [s.reference, s.amount]));
      for (const job of jobs) {
        const amount = job.reservationRef ? spendOf.get(job.reservationRef) : undefined;
        if (amount !== -1) check.problems.push(`${owner.email}: scan ${job.id} paid ${amount === undefined ? "nothing" : `${-amount} credits`}`);
      }
      const references = new Set(jobs.map((j) => j.reservationRef));
      for (const spend of spends)
        if (!references.has(spend.reference))
          check.problems.push(`${owner.email}: ${-spend.amount} credits spent on ${spend.reference}, which is no scan`);
      const scanned = new Set(jobs.map((j) => j.itemId));
      for (const scan of scans) {
        if (scan.owner === owner && scan.acknowledged && !scanned.has(scan.itemId))
          check.problems.push(`${owner.email}: acknowledged scan of ${scan.itemId} is not in the database`);
      }
      const quotas = await fetch(`${origin}/v1/user/quotas`, {
        headers: { Authorization: `Bearer ${await tokenOf(owner)}` },
      }).then((r) => r.json());
      const shown = quotas?.data?.total_scan_credit;
      const expected = grantedOf(owner) - jobs.length;
      if (shown !== expected)
        check.problems.push(
          `${owner.email}: the site shows ${shown} scan credits, ${grantedOf(owner)} granted less ${jobs.length} scans is ${expected}`,
        );
    }
  } finally {
    await client.end();
  }
  return check;
}
