package io.timelinearchive.timeline;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;

/**
 * A file of the table's own bookkeeping ({@code hoodie.properties}, the archive lock or run
 * journal) whose content cannot be read; its message names the file. Bad input, not a bug.
 */
public class InvalidTableFileException extends IOException {
  private static final long serialVersionUID = 1L;

  public InvalidTableFileException(StorageLocation file, String reason, Throwable cause) {
    super(
        "cannot read "
            + requireNonNull(file, "file is null")
            + ": "
            + requireNonNull(reason, "reason is null"),
        cause);
  }
}
