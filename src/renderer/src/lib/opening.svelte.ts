/**
 * Datasets being opened, by name, from the moment the open starts until it ends (loading a
 * large file takes seconds; the backend has no cancel for a load, so the shell shows it).
 */
export class OpeningState {
  /** Names of the files being opened, oldest first. */
  names = $state.raw<string[]>([]);

  /** Runs `action` with `name` listed as opening. */
  async track(name: string, action: () => Promise<void>): Promise<void> {
    this.names = [...this.names, name];
    try {
      await action();
    } finally {
      const at = this.names.indexOf(name);
      this.names = this.names.filter((_, i) => i !== at);
    }
  }
}
