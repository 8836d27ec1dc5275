/**
 * Undo and redo for the clean-up editor (pure). The state is one flag per splat (1 = deleted); each
 * step deletes a set of splats, undo brings them back, redo deletes them again. A new step after an
 * undo drops the steps that were undone.
 */
export class EditHistory {
  readonly deleted: Uint8Array;
  private readonly done: Uint32Array[] = [];
  private undone: Uint32Array[] = [];
  private deletedCount = 0;

  constructor(readonly total: number) {
    this.deleted = new Uint8Array(total);
  }

  get kept(): number {
    return this.total - this.deletedCount;
  }

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** Deletes the listed splats (those already deleted are ignored); false when nothing changed. */
  delete(indices: Iterable<number>): boolean {
    const step: number[] = [];
    for (const index of indices) {
      if (index < 0 || index >= this.total || this.deleted[index]) continue;
      this.deleted[index] = 1;
      step.push(index);
    }
    if (step.length === 0) return false;
    this.deletedCount += step.length;
    this.done.push(Uint32Array.from(step));
    this.undone = [];
    return true;
  }

  undo(): boolean {
    const step = this.done.pop();
    if (!step) return false;
    for (const index of step) this.deleted[index] = 0;
    this.deletedCount -= step.length;
    this.undone.push(step);
    return true;
  }

  redo(): boolean {
    const step = this.undone.pop();
    if (!step) return false;
    for (const index of step) this.deleted[index] = 1;
    this.deletedCount += step.length;
    this.done.push(step);
    return true;
  }
}
