/** What every part of the controller reads before it acts: disposed, and paused (an embed off screen). */
export interface Lifecycle {
  disposed: boolean;
  /** false while paused: changes and requests are remembered, nothing is sent */
  active: boolean;
}
