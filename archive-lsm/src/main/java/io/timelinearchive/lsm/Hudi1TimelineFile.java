package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.FileEntry;

/** An instant file of a Hudi 1.x active timeline: what its name says, and the file itself. */
public record Hudi1TimelineFile(Hudi1Instant instant, FileEntry file) {
  public Hudi1TimelineFile {
    requireNonNull(instant, "instant is null");
    requireNonNull(file, "file is null");
  }
}
