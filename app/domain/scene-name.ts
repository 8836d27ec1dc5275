/** The longest item name (SPEC's limit on names). */
const MAX_NAME = 200;

/**
 * The name a new scene gets when its maker gave none: after the models it starts with ("Scene with cat and
 * guitar", "Scene with cat, guitar and 3 more"), so the dashboard never fills with "Untitled scene"s that
 * cannot be told apart; an empty scene is "Untitled scene".
 */
export function defaultSceneName(modelNames: string[]): string {
  const names = modelNames.map((name) => name.trim()).filter(Boolean);
  if (names.length === 0) return "Untitled scene";
  const shown = names.length <= 3 ? names : names.slice(0, 2);
  const rest = names.length - shown.length;
  const list =
    rest > 0 ? `${shown.join(", ")} and ${rest} more` : shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
  const name = `Scene with ${list}`;
  return name.length <= MAX_NAME ? name : `${name.slice(0, MAX_NAME - 1).trimEnd()}…`;
}
