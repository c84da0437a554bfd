package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.archive.maintenance.ArchiveHistoryPurger;
import io.timelinearchive.archive.maintenance.ArchiveMerger;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.select.InstantSelector;
import io.timelinearchive.select.MetadataTableRules;
import io.timelinearchive.select.TableFacts;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * Hudi 0.x's archive: instant files in {@code .hoodie/}, the archive the log files {@code
 * .commits_.archive.N} of {@code .hoodie/archived/}, selected by Hudi 0.15's rules, merged and
 * purged as the settings ask.
 */
final class LogBlockHistory implements TimelineHistory {
  private final MetaStorage storage;
  private final HoodieTable table;
  private final ArchivalPolicy policy;
  private final MetadataTableRules metadataTableRules;
  private final ArchiverSettings settings;
  private final Clock clock;

  LogBlockHistory(TimelineHistoryProvider.Context context) {
    this.storage = requireNonNull(context.storage(), "storage is null");
    this.table = requireNonNull(context.table(), "table is null");
    this.policy = requireNonNull(context.policy(), "policy is null");
    this.metadataTableRules =
        requireNonNull(context.metadataTableRules(), "metadataTableRules is null");
    this.settings = requireNonNull(context.settings(), "settings is null");
    this.clock = requireNonNull(context.clock(), "clock is null");
  }

  @Override
  public StorageLocation folder() {
    return table.archiveFolder();
  }

  @Override
  public ArchiveFolder recover(ArchiveFolder folder, ArchiveLock lock, RunReport report)
      throws IOException {
    return merger(lock, report).recover(folder);
  }

  @Override
  public ActiveTimeline listActive() throws IOException {
    return ActiveTimeline.load(storage, table.metaFolder());
  }

  @Override
  public TableFacts facts(ActiveTimeline active) throws IOException {
    return TableFactsLoader.load(storage, table, active);
  }

  @Override
  public ArchivalPlan plan(ActiveTimeline active, Instant now) throws IOException {
    return InstantSelector.plan(
        active.timeline(),
        facts(active),
        metadataTableRules.policyOf(table.isMetadataTable(), policy),
        now);
  }

  /**
   * The entries in the journal's file from its offset on and in every later version. Each is read
   * to its end, not to its listed length: a file its writer left open can list short (see {@link
   * MetaStorage}), and what a reader missed there would be archived again.
   */
  @Override
  public Set<TimelineInstant> settle(
      ArchiveFolder folder, ArchiveJournal journal, ActiveTimeline active) throws IOException {
    OptionalInt journalVersion = ArchiveFileName.version(journal.archiveFile());
    if (journalVersion.isEmpty()) {
      throw new IOException(
          "run journal "
              + ArchiveJournal.location(folder.location())
              + " names '"
              + journal.archiveFile()
              + "', which is not an archive file");
    }
    Set<TimelineInstant> archived = new HashSet<>();
    for (FileEntry file : folder.archiveFiles()) {
      int version = ArchiveFolder.version(file.name());
      if (version >= journalVersion.getAsInt()) {
        long from = version == journalVersion.getAsInt() ? journal.offset() : 0;
        ArchivedTimeline.readFileToEnd(storage, file, from)
            .instants()
            .forEach(a -> archived.add(a.instant()));
      }
    }
    return archived;
  }

  @Override
  public ArchivedFiles archive(
      ArchivalPlan plan,
      ActiveTimeline active,
      ArchiveFolder folder,
      ArchiveLock lock,
      RunReport report)
      throws IOException {
    return new EntryPipeline(storage, settings, lock, report).archive(plan, active, folder);
  }

  @Override
  public void maintain(ArchiveFolder folder, ArchiveLock lock, RunReport report)
      throws IOException {
    report.enter(Phase.MERGE);
    Optional<ArchiveMerger.Merge> merge = merger(lock, report).mergeIfDue(folder, clock.instant());
    if (merge.isPresent()) {
      report.merged(merge.get().sources(), merge.get().mergedFile());
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
  }

  private ArchiveMerger merger(ArchiveLock lock, RunReport report) {
    return new ArchiveMerger(
        storage, settings.merge(), settings.maxArchiveFileBytes(), lock, report::warn);
  }
}
