package io.timelinearchive.storage;

import static java.util.Objects.requireNonNull;

import java.io.IOException;

/**
 * The store could not be asked at all: its host does not resolve, it refuses or drops the
 * connection, it does not answer in time, or there are no credentials to sign a request with. The
 * user's environment is at fault rather than the table or this library, so the message says what
 * the store (or the client) said and which settings or credential source to check.
 */
public final class StorageUnreachableException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String location;
  private final String reason;
  private final String check;

  /**
   * @param location what was asked for
   * @param reason what the store or the client said
   * @param check the settings or credential source to check, e.g. {@code s3.endpoint, s3.region}
   */
  public StorageUnreachableException(
      StorageLocation location, String reason, String check, Throwable cause) {
    super(
        "cannot reach the store for "
            + requireNonNull(location, "location is null")
            + ": "
            + requireNonNull(reason, "reason is null")
            + "; check "
            + requireNonNull(check, "check is null"),
        cause);
    this.location = location.toString();
    this.reason = reason;
    this.check = check;
  }

  /** The location the failed request was for. */
  public String location() {
    return location;
  }

  /** What the store or its client said. */
  public String reason() {
    return reason;
  }

  /** The settings or credential source that decide where and as whom the request goes. */
  public String check() {
    return check;
  }
}
