import { Button } from "primereact/button";
import { InputText } from "primereact/inputtext";
import { useState, type FormEvent } from "react";
import { useAdminAction } from "./use-admin-action";

const CREDIT_TYPES = [
  { label: "Scan credits", value: "scan" },
  { label: "Link credits", value: "link" },
] as const;

/** Adds (positive) or removes (negative) credits with a reason that goes into the ledger. */
export function CreditAdjustmentForm({ userId }: { userId: string }) {
  const { run, busy } = useAdminAction();
  const [creditType, setCreditType] = useState<"scan" | "link">("scan");
  const [amountText, setAmountText] = useState("");
  const amount = /^-?\d{1,5}$/.test(amountText.trim()) ? Number(amountText.trim()) : null;
  const [reason, setReason] = useState("");

  const adjust = async (event: FormEvent) => {
    event.preventDefault();
    if (!amount) return;
    const done = await run(
      (api) => api(`/admin/users/${userId}/credits`, { method: "POST", body: { credit_type: creditType, amount, reason: reason.trim() } }),
      `${amount > 0 ? "Added" : "Removed"} ${Math.abs(amount)} ${creditType} credits.`,
    );
    if (done) {
      setAmountText("");
      setReason("");
    }
  };

  return (
    <form className="admin-form" onSubmit={adjust}>
      <div className="admin-form-row">
        <div className="admin-field">
          <label htmlFor="adjust-type">Credit type</label>
          <select id="adjust-type" className="p-inputtext" value={creditType} onChange={(e) => setCreditType(e.target.value as "scan" | "link")}>
            {CREDIT_TYPES.map((t) => (
              <option key={t.value} value={t.value}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        <div className="admin-field">
          <label htmlFor="adjust-amount">Amount (negative removes)</label>
          <InputText id="adjust-amount" type="number" step={1} min={-10000} max={10000} value={amountText} onChange={(e) => setAmountText(e.target.value)} />
        </div>
      </div>
      <label htmlFor="adjust-reason">Reason (recorded in the ledger)</label>
      <InputText id="adjust-reason" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      <div className="admin-actions">
        <Button type="submit" label="Adjust credits" disabled={!amount || reason.trim().length < 3 || busy} />
      </div>
    </form>
  );
}
