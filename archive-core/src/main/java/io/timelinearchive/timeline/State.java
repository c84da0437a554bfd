package io.timelinearchive.timeline;

/** The state of an instant, in the order an instant passes through them. */
public enum State {
  REQUESTED,
  INFLIGHT,
  COMPLETED;

  public boolean isPending() {
    return this != COMPLETED;
  }
}
