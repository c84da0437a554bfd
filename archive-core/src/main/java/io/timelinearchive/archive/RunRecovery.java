package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finishes a run that stopped between its first archive byte and its last deletion, as its journal
 * shows: the active files it had archived already are deleted (in the order of invariant 2), never
 * archived again (invariant 3). What it had archived is the history's to say ({@link
 * TimelineHistory#settle}): only what the journal names is read.
 */
final class RunRecovery {
  private final MetaStorage storage;
  private final TimelineHistory history;
  private final TimelineDeleter deleter;
  private final RunReport report;

  RunRecovery(
      MetaStorage storage, TimelineHistory history, TimelineDeleter deleter, RunReport report) {
    this.storage = requireNonNull(storage, "storage is null");
    this.history = requireNonNull(history, "history is null");
    this.deleter = requireNonNull(deleter, "deleter is null");
    this.report = requireNonNull(report, "report is null");
  }

  /**
   * @param folder the archive folder, as listed at the start of this run
   * @return the active timeline without the files recovery deleted
   */
  ActiveTimeline finish(ArchiveFolder folder, ActiveTimeline active) throws IOException {
    // Read under the lock, not taken from the listing: a listing made before the lock cannot
    // vouch that no journal came after it.
    Optional<ArchiveJournal> journal = ArchiveJournal.read(storage, folder.location());
    if (journal.isEmpty()) {
      return active;
    }
    Set<TimelineInstant> archived = history.settle(folder, journal.get(), active);
    // A completed file goes only with all its pending siblings archived too: entries are written
    // in state order, so this always holds unless someone edited the archive by hand.
    Set<InstantKey> incomplete = new HashSet<>();
    for (TimelineFile f : active.files()) {
      if (f.instant().state().isPending() && !archived.contains(f.instant())) {
        incomplete.add(f.instant().key());
      }
    }
    List<TimelineFile> deletable =
        active.files().stream()
            .filter(f -> archived.contains(f.instant()))
            .filter(f -> !(f.instant().isCompleted() && incomplete.contains(f.instant().key())))
            .toList();
    if (!deletable.isEmpty()) {
      report.warn(
          "finished an interrupted run: "
              + deletable.size()
              + " instant file(s) were archived already and are now deleted");
    }
    deleter.delete(deletable);
    report.recovered(deletable);
    ArchiveJournal.delete(storage, folder.location());
    Set<TimelineFile> gone = new HashSet<>(deletable);
    return new ActiveTimeline(
        active.metaFolder(),
        active.files().stream().filter(f -> !gone.contains(f)).toList(),
        active.malformed());
  }
}
