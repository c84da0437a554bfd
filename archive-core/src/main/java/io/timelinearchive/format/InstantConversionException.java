package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;

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

  /**
   * What stopped the read of an instant file on a reader thread, as the run reports it: a file gone
   * meanwhile is named as deleted by another process, an I/O failure passes as it is.
   *
   * @param file the file being read
   * @param cause what the read threw
   */
  public static IOException ofRead(TimelineFile file, Throwable cause) {
    if (cause instanceof NoSuchFileException) {
      return new InstantConversionException(
          file.instant(),
          file.file().location() + " disappeared while archiving (another process deleted it)",
          cause);
    }
    if (cause instanceof IOException io) {
      return io;
    }
    if (cause instanceof UncheckedIOException u) {
      return u.getCause();
    }
    return new InstantConversionException(
        file.instant(), file.file().location() + ": " + cause, cause);
  }
}
