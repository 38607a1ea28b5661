/**
 * The pause between rounds of a polling loop (event delivery, the task engine): `sleep` waits until its time is
 * up or `wake()` is called. A wake that comes while the loop is busy is kept, so the next sleep returns at once
 * and work announced mid-round is never left for a whole poll interval.
 */
export class LoopPause {
  private wakeUp: (() => void) | undefined;
  private wokenWhileBusy = false;

  wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    if (wakeUp) wakeUp();
    else this.wokenWhileBusy = true;
  }

  sleep(ms: number): Promise<void> {
    if (this.wokenWhileBusy) {
      this.wokenWhileBusy = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = undefined;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
