package io.timelinearchive.storage;

import java.io.IOException;

/**
 * A conditional write was retried and the store's answer cannot tell whether this writer's first
 * attempt succeeded (for example a {@code 412} after a timed-out attempt). The caller reads the
 * file back and compares it with what it meant to write.
 */
public final class OutcomeUnknownException extends IOException {
  private static final long serialVersionUID = 1L;

  public OutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
