package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;

/** An instant state file whose content cannot be turned into an archive entry. */
public class InstantConversionException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient TimelineInstant instant;
  private final String reason;

  public InstantConversionException(TimelineInstant instant, String reason) {
    this(instant, reason, null);
  }

  public InstantConversionException(TimelineInstant instant, String reason, Throwable cause) {
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

  public TimelineInstant instant() {
    return instant;
  }
}
