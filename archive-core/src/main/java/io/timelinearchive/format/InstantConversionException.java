package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.Instant;
import java.io.IOException;

/** An instant state file whose content cannot be turned into an archive entry. */
public class InstantConversionException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Instant instant;
  private final String reason;

  public InstantConversionException(Instant instant, String reason) {
    this(instant, reason, null);
  }

  public InstantConversionException(Instant instant, String reason, Throwable cause) {
    super(
        "cannot archive instant "
            + requireNonNull(instant, "instant is null")
            + ": "
            + requireNonNull(reason, "reason is null"),
        cause);
    this.instant = instant;
    this.reason = reason;
  }

  /** What is wrong, without the instant. */
  public String reason() {
    return reason;
  }

  public Instant instant() {
    return instant;
  }
}
