package io.timelinearchive.timeline;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.FileEntry;

/** An instant state file as found in {@code .hoodie/}: what its name says, and the file itself. */
public record TimelineFile(TimelineInstant instant, FileEntry file) {
  public TimelineFile {
    requireNonNull(instant, "instant is null");
    requireNonNull(file, "file is null");
  }
}
