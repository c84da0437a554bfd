package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.InstantFileName;
import java.io.IOException;
import java.time.Clock;

/**
 * One archival run, its steps in the order of the protocol, each durable before the next: take the
 * lock; list the active timeline; finish what an interrupted run left; select; archive (read,
 * convert, write, durable); delete the archived files, pending ones first and completed ones oldest
 * first; tidy {@code .aux/} and drop the journal; then keep the archive tidy (merge, purge or
 * compact, as the format does), and release the lock. What depends on the table's timeline format
 * is its {@link TimelineHistory}'s.
 */
final class ArchiveRun {
  /** The history of the table, once the run has read which format it has. */
  interface HistoryOpener {
    TimelineHistory open(HoodieTable table) throws IOException;
  }

  private final CountingMetaStorage storage;
  private final StorageLocation base;
  private final HistoryOpener histories;
  private final ArchiverSettings settings;
  private final Clock clock;
  private final RunReport report;

  ArchiveRun(
      CountingMetaStorage storage,
      StorageLocation base,
      HistoryOpener histories,
      ArchiverSettings settings,
      Clock clock,
      ArchiveListener listener) {
    this.storage = requireNonNull(storage, "storage is null");
    this.base = requireNonNull(base, "base is null");
    this.histories = requireNonNull(histories, "histories is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.report = new RunReport(storage, listener, System::nanoTime);
  }

  ArchiveResult run() throws IOException {
    report.enter(Phase.LOCK);
    HoodieTable table = HoodieTable.inspect(storage, base);
    TimelineHistory history = histories.open(table);
    ArchiveFolder folder = ArchiveFolder.list(storage, history.folder());
    ArchivalPlan plan;
    ArchivedFiles archived;
    try (ArchiveLock lock =
        ArchiveLock.acquire(storage, folder, settings.owner(), settings.lockLease(), clock)) {
      report.enter(Phase.LIST);
      ActiveTimeline active = listActive(history);

      report.enter(Phase.RECOVER);
      TimelineDeleter deleter = new TimelineDeleter(storage, lock, report);
      folder = history.recover(folder, lock, report);
      active = new RunRecovery(storage, history, deleter, report).finish(folder, active);

      report.enter(Phase.SELECT);
      plan = history.plan(active, clock.instant());
      report.warnAll(plan.warnings());

      report.enter(Phase.READ);
      if (!plan.isEmpty()) {
        MetaFolderWriteCheck.check(storage, active.metaFolder());
      }
      archived = history.archive(plan, active, folder, lock, report);
      if (!archived.instants().isEmpty()) {
        deleter.delete(archived.files());
        report.enter(Phase.AUX);
        report.auxDeleted(AuxCleaner.clean(storage, table, archived.instants()));
        ArchiveJournal.delete(storage, folder.location());
      }
      // Archived before the failure (a run too large to buffer) and tidied up: now report it.
      archived.throwFailure();

      history.maintain(withWritten(folder), lock, report);
      report.enter(Phase.UNLOCK);
    }
    return report.result(plan, archived.instants(), archived.barrier());
  }

  private ActiveTimeline listActive(TimelineHistory history) throws IOException {
    ActiveTimeline active = history.listActive();
    report.activeBefore(active.files().size());
    for (InstantFileName.Result.Malformed m : active.malformed()) {
      report.warn(
          "left alone: " + active.metaFolder().resolve(m.fileName()) + " (" + m.reason() + ")");
    }
    return active;
  }

  /** The folder with what this run wrote to it, which its listing does not show. */
  private ArchiveFolder withWritten(ArchiveFolder folder) {
    for (ArchiveResult.WrittenFile w : report.written()) {
      folder = folder.withWritten(w.name(), w.bytesWritten(), clock.instant());
    }
    return folder;
  }
}
