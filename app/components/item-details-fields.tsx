import { DEFAULT_LICENSE, LICENSE_INFO, LICENSES, parseTagList, tagListProblem, type License } from "~/domain/item-details";

/**
 * A model's details as a form holds them (issue 35 item 3): the upload dialog and the edit page both use these
 * fields, so a creator sets title, description, category, tags and licence the same way in both places.
 */
export interface DetailsForm {
  name: string;
  description: string;
  category_id: string;
  /** As typed: tags separated by commas. */
  tags: string;
  license: License;
}

export const EMPTY_DETAILS: DetailsForm = { name: "", description: "", category_id: "", tags: "", license: DEFAULT_LICENSE };

export interface CategoryOption {
  id: string;
  name: string;
}

/** The form's tags as stored, and what is wrong with them (null when nothing). */
export function readTags(form: Pick<DetailsForm, "tags">): { tags: string[]; problem: string | null } {
  const tags = parseTagList(form.tags);
  return { tags, problem: tagListProblem(tags) };
}

export function ItemDetailsFields({
  idPrefix,
  form,
  onChange,
  categories,
  namePlaceholder,
  nameRequired = false,
  disabled = false,
}: {
  idPrefix: string;
  form: DetailsForm;
  onChange: (next: DetailsForm) => void;
  categories: readonly CategoryOption[];
  /** The name the model gets when the title is left empty (the upload dialog's default names). */
  namePlaceholder?: string;
  nameRequired?: boolean;
  disabled?: boolean;
}) {
  const id = (field: string) => `${idPrefix}-${field}`;
  const set = <K extends keyof DetailsForm>(key: K, value: DetailsForm[K]) => onChange({ ...form, [key]: value });
  const { tags, problem } = readTags(form);
  const license = LICENSE_INFO[form.license];
  return (
    <div className="details-fields">
      <label htmlFor={id("name")}>Title</label>
      <input
        id={id("name")}
        className="p-inputtext"
        required={nameRequired}
        maxLength={200}
        value={form.name}
        placeholder={namePlaceholder}
        disabled={disabled}
        onChange={(e) => set("name", e.target.value)}
      />
      <label htmlFor={id("description")}>Description</label>
      <textarea
        id={id("description")}
        className="p-inputtext"
        rows={3}
        maxLength={5000}
        value={form.description}
        disabled={disabled}
        onChange={(e) => set("description", e.target.value)}
      />
      <label htmlFor={id("category")}>Category</label>
      <select id={id("category")} className="p-inputtext" value={form.category_id} disabled={disabled} onChange={(e) => set("category_id", e.target.value)}>
        <option value="">No category</option>
        {categories.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <label htmlFor={id("tags")}>Tags</label>
      <input
        id={id("tags")}
        className="p-inputtext"
        maxLength={400}
        value={form.tags}
        placeholder="e.g. chair, oak, mid-century"
        disabled={disabled}
        aria-describedby={id("tags-help")}
        aria-invalid={problem !== null}
        onChange={(e) => set("tags", e.target.value)}
      />
      <p id={id("tags-help")} className={problem ? "details-problem" : "item-panel-note"} data-testid="tags-help">
        {problem ? `Tags: ${problem}.` : tags.length > 0 ? tags.map((tag) => `#${tag}`).join(" ") : "Separate tags with commas; people find your model by them."}
      </p>
      <label htmlFor={id("license")}>Licence</label>
      <select id={id("license")} className="p-inputtext" value={form.license} disabled={disabled} onChange={(e) => set("license", e.target.value as License)}>
        {LICENSES.map((value) => (
          <option key={value} value={value}>
            {LICENSE_INFO[value].label}
          </option>
        ))}
      </select>
      <p className="item-panel-note" data-testid="license-summary">
        {license.summary}
      </p>
    </div>
  );
}
