package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.InvalidTableFileException;

/**
 * A file of a Hudi 1.x table's LSM history ({@code _version_}, a manifest, a Parquet file) that
 * cannot be read, or that a manifest names but is missing; the message names the file. Bad input,
 * not a bug.
 */
public final class CorruptHistoryFileException extends InvalidTableFileException {
  private static final long serialVersionUID = 1L;

  private final transient StorageLocation file;

  public CorruptHistoryFileException(StorageLocation file, String reason) {
    this(file, reason, null);
  }

  public CorruptHistoryFileException(StorageLocation file, String reason, Throwable cause) {
    super(file, reason, cause);
    this.file = requireNonNull(file, "file is null");
  }

  /** The history file at fault. */
  public StorageLocation file() {
    return file;
  }
}
