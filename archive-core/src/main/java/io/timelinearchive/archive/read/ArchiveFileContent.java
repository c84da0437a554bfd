package io.timelinearchive.archive.read;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.format.ArchivedInstant;
import java.util.List;

/** The entries of one archive file, in file order, and what reading it found. */
public record ArchiveFileContent(ArchiveFileSummary summary, List<ArchivedInstant> instants) {
  public ArchiveFileContent {
    requireNonNull(summary, "summary is null");
    instants = List.copyOf(instants);
  }
}
