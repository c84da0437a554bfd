package io.timelinearchive.format;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * An archive file holds bytes that are not a valid log block where one must be. A block cut off by
 * the end of the file is not corrupt: readers report it as a truncated tail instead.
 */
public class CorruptArchiveException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String location;
  private final long offset;

  public CorruptArchiveException(String location, long offset, String reason) {
    this(location, offset, reason, null);
  }

  public CorruptArchiveException(String location, long offset, String reason, Throwable cause) {
    super(
        "corrupt archive file "
            + requireNonNull(location, "location is null")
            + " at byte offset "
            + offset
            + ": "
            + requireNonNull(reason, "reason is null"),
        cause);
    this.location = location;
    this.offset = offset;
  }

  /** The archive file. */
  public String location() {
    return location;
  }

  /** Where in the file the bad bytes are. */
  public long offset() {
    return offset;
  }
}
