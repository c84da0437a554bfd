package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.select.Barrier;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.util.List;

/**
 * What a run archived durably.
 *
 * @param instants the state files archived, in timeline order
 * @param files the same, as the active timeline's files, for the deletes
 * @param barrier what stopped the commits: the plan's, or an unreadable file
 * @param failure thrown once what was archived is tidied up, if not null
 */
public record ArchivedFiles(
    List<TimelineInstant> instants,
    List<TimelineFile> files,
    Barrier barrier,
    IOException failure) {
  public ArchivedFiles {
    instants = List.copyOf(instants);
    files = List.copyOf(files);
    requireNonNull(barrier, "barrier is null");
  }

  /** Throws the failure that ended the archiving early, if any. */
  public void throwFailure() throws IOException {
    if (failure != null) {
      throw failure;
    }
  }
}
