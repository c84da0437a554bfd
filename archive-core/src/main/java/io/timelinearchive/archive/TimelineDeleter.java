package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.TimelineFile;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;

/**
 * Deletes archived instant files in the order invariant 2 asks: the pending files first, in one
 * batch (their order cannot make a hole), then the completed ones one call each, oldest first, so a
 * concurrent reader never sees a newer completed instant gone while an older one of this run is
 * still there, nor a completed instant turned pending-looking. The lease is checked before the
 * pending batch and, when due, before each completed file: a holder that lost the lock stops.
 *
 * <p>Durability is asked for twice, not per file: the pending deletes are made durable before the
 * first completed one, so that not even a power loss can bring back a pending file beside a
 * completed file already gone for good (a writer would take the instant for a failed one and roll
 * it back); the completed deletes once at the end, before the journal goes. A power loss between
 * brings back some completed files, which the journal makes the next run delete again.
 */
final class TimelineDeleter {
  private final MetaStorage storage;
  private final ArchiveLock lock;
  private final RunReport report;

  TimelineDeleter(MetaStorage storage, ArchiveLock lock, RunReport report) {
    this.storage = requireNonNull(storage, "storage is null");
    this.lock = requireNonNull(lock, "lock is null");
    this.report = requireNonNull(report, "report is null");
  }

  /** Deletes {@code files}, all of them archived durably already. */
  void delete(List<TimelineFile> files) throws IOException {
    if (files.isEmpty()) {
      return;
    }
    report.enter(Phase.DELETE_PENDING);
    lock.check();
    List<StorageLocation> pending =
        files.stream()
            .filter(f -> f.instant().state().isPending())
            .map(f -> f.file().location())
            .toList();
    List<StorageLocation> folders =
        files.stream().map(f -> f.file().location().parent()).distinct().toList();
    if (!pending.isEmpty()) {
      storage.deleteAll(pending);
      report.deleted(pending.size());
      syncDeletes(folders);
      report.progress(Phase.DELETE_PENDING, pending.size(), pending.size());
    }
    report.enter(Phase.DELETE_COMPLETED);
    List<TimelineFile> completed =
        files.stream()
            .filter(f -> f.instant().isCompleted())
            .sorted(Comparator.comparing(TimelineFile::instant))
            .toList();
    int done = 0;
    for (TimelineFile f : completed) {
      lock.checkIfDue();
      storage.deleteAll(List.of(f.file().location()));
      report.deleted(1);
      report.progress(Phase.DELETE_COMPLETED, ++done, completed.size());
    }
    syncDeletes(folders);
  }

  private void syncDeletes(List<StorageLocation> folders) throws IOException {
    for (StorageLocation folder : folders) {
      storage.syncDeletes(folder);
    }
  }
}
