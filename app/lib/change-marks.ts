/**
 * When each thing that changes ('item:<id>', 'user:<id>') last changed, by a mark its keeper gives (the change's
 * number, or the clock when it was heard). What was read or rendered from some mark on asks whether a change to
 * what it shows came after: only then may it hold what was there before. A change to anything else says nothing
 * about it (a creator's edit to their own model does not spoil a visitor's read of another).
 *
 * 'all' marks every thing at once, and so does the change that would make more than `maxRemembered` things to
 * remember (their marks are forgotten, so each must count as changed).
 */
export class ChangeMarks {
  private everything = -Infinity;
  private readonly marks = new Map<string, number>();

  constructor(private readonly maxRemembered = 10_000) {}

  /** Notes that `what` ('all': everything) changed at `mark`; marks are given in increasing order. */
  note(what: string, mark: number): void {
    if (what === "all" || this.marks.size >= this.maxRemembered) {
      this.marks.clear();
      this.everything = mark;
    }
    if (what !== "all") this.marks.set(what, mark);
  }

  /** Whether any of `shows` changed at a mark after `mark`. */
  changedAfter(shows: readonly string[], mark: number): boolean {
    return this.everything > mark || shows.some((what) => (this.marks.get(what) ?? -Infinity) > mark);
  }

  /** Whether any of `shows` changed at `mark` or after it. */
  changedSince(shows: readonly string[], mark: number): boolean {
    return this.everything >= mark || shows.some((what) => (this.marks.get(what) ?? -Infinity) >= mark);
  }
}
