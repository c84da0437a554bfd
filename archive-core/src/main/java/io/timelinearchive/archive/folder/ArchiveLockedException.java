package io.timelinearchive.archive.folder;

import java.io.IOException;

/** Another archiver holds the table's archive lock (or took it over while this one was paused). */
public final class ArchiveLockedException extends IOException {
  private static final long serialVersionUID = 1L;

  public ArchiveLockedException(String message) {
    super(message);
  }
}
