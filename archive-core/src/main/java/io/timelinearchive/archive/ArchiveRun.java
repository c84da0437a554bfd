package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.archive.maintenance.ArchiveHistoryPurger;
import io.timelinearchive.archive.maintenance.ArchiveMerger;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.select.InstantSelector;
import io.timelinearchive.select.MetadataTableRules;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.InstantFileName;
import java.io.IOException;
import java.time.Clock;
import java.util.Optional;

/**
 * One archival run, its steps in the order of the protocol, each durable before the next: take the
 * lock; list the active timeline; finish what an interrupted run left; select; archive (read,
 * convert, write the blocks, durable); delete the archived files, pending ones first and completed
 * ones oldest first; tidy {@code .aux/} and drop the journal; then merge and purge old archive
 * files if due, and release the lock.
 */
final class ArchiveRun {
  private final CountingMetaStorage storage;
  private final StorageLocation base;
  private final ArchivalPolicy policy;
  private final MetadataTableRules metadataTableRules;
  private final ArchiverSettings settings;
  private final Clock clock;
  private final RunReport report;

  ArchiveRun(
      CountingMetaStorage storage,
      StorageLocation base,
      ArchivalPolicy policy,
      MetadataTableRules metadataTableRules,
      ArchiverSettings settings,
      Clock clock,
      ArchiveListener listener) {
    this.storage = requireNonNull(storage, "storage is null");
    this.base = requireNonNull(base, "base is null");
    this.policy = requireNonNull(policy, "policy is null");
    this.metadataTableRules = requireNonNull(metadataTableRules, "metadataTableRules is null");
    this.settings = requireNonNull(settings, "settings is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.report = new RunReport(storage, listener, System::nanoTime);
  }

  ArchiveResult run() throws IOException {
    report.enter(Phase.LOCK);
    HoodieTable table = HoodieTable.load(storage, base);
    ArchiveFolder folder = ArchiveFolder.list(storage, table.archiveFolder());
    ArchivalPlan plan;
    EntryPipeline.Archived archived;
    try (ArchiveLock lock =
        ArchiveLock.acquire(storage, folder, settings.owner(), settings.lockLease(), clock)) {
      report.enter(Phase.LIST);
      ActiveTimeline active = listActive(table);

      report.enter(Phase.RECOVER);
      TimelineDeleter deleter = new TimelineDeleter(storage, lock, report);
      ArchiveMerger merger =
          new ArchiveMerger(
              storage, settings.merge(), settings.maxArchiveFileBytes(), lock, report::warn);
      folder = merger.recover(folder);
      active = new RunRecovery(storage, deleter, report).finish(folder, active);

      report.enter(Phase.SELECT);
      plan =
          InstantSelector.plan(
              active.timeline(),
              TableFactsLoader.load(storage, table, active),
              metadataTableRules.policyOf(table.isMetadataTable(), policy),
              clock.instant());
      report.warnAll(plan.warnings());

      report.enter(Phase.READ);
      if (!plan.isEmpty()) {
        MetaFolderWriteCheck.check(storage, table.metaFolder());
      }
      archived = new EntryPipeline(storage, settings, lock, report).archive(plan, active, folder);
      if (!archived.instants().isEmpty()) {
        deleter.delete(archived.files());
        report.enter(Phase.AUX);
        report.auxDeleted(AuxCleaner.clean(storage, table, archived.instants()));
        ArchiveJournal.delete(storage, folder.location());
      }
      // Archived before the failure (a run too large to buffer) and tidied up: now report it.
      archived.throwFailure();

      report.enter(Phase.MERGE);
      folder = withWritten(folder);
      Optional<ArchiveMerger.Merge> merge = merger.mergeIfDue(folder, clock.instant());
      if (merge.isPresent()) {
        report.merged(merge.get());
        folder = merge.get().after();
      }
      if (settings.historyMaxAge().isPresent()) {
        report.enter(Phase.PURGE);
        report.purged(
            ArchiveHistoryPurger.purge(
                storage,
                folder,
                report.written().stream().map(ArchiveResult.WrittenFile::name).toList(),
                settings.historyMaxAge().get(),
                clock.instant(),
                TableFactsLoader.timelineZone(table),
                lock));
      }
      report.enter(Phase.UNLOCK);
    }
    return report.result(plan, archived.instants(), archived.barrier());
  }

  private ActiveTimeline listActive(HoodieTable table) throws IOException {
    ActiveTimeline active = ActiveTimeline.load(storage, table.metaFolder());
    report.activeBefore(active.files().size());
    for (InstantFileName.Result.Malformed m : active.malformed()) {
      report.warn(
          "left alone: " + table.metaFolder().resolve(m.fileName()) + " (" + m.reason() + ")");
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
