package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.ArchiveJournal;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.ArchivedFiles;
import io.timelinearchive.archive.ArchiverSettings;
import io.timelinearchive.archive.OrderedReads;
import io.timelinearchive.archive.Phase;
import io.timelinearchive.archive.RunReport;
import io.timelinearchive.archive.TimelineHistory;
import io.timelinearchive.archive.TimelineHistoryProvider;
import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.select.TableFacts;
import io.timelinearchive.storage.DaemonThreads;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

/**
 * Hudi 1.x's history, for one run or plan (it keeps the 1.x view of what it listed): instant files
 * in {@code .hoodie/timeline/}, selected by Hudi 1.0's rules, archived as one layer-0 Parquet file
 * per run made current by manifest N+1 and {@code _version_}, then compacted and cleaned as Hudi
 * does. The lock and the run journal live in the history folder, where Hudi's reader and cleaner
 * see neither (they read manifests and {@code *.parquet} only).
 */
final class LsmTimelineHistory implements TimelineHistory {
  private final MetaStorage storage;
  private final HoodieTable table;
  private final TimelineHistoryProvider.Context context;
  private final ArchiverSettings settings;
  private final LsmHistoryWriter writer;

  /** The 1.x view of each instant file listed, for the completion times core's model drops. */
  private final Map<StorageLocation, Hudi1TimelineFile> listed = new HashMap<>();

  private Hudi1ActiveTimeline timeline;
  private Optional<LsmSnapshot> written = Optional.empty();

  LsmTimelineHistory(TimelineHistoryProvider.Context context, LsmSettings lsmSettings) {
    this.context = requireNonNull(context, "context is null");
    this.storage = context.storage();
    this.table = context.table();
    this.settings = context.settings();
    this.writer = new LsmHistoryWriter(storage, table.historyFolder(), lsmSettings);
  }

  @Override
  public StorageLocation folder() {
    return table.historyFolder();
  }

  /** Compactions finish or are undone by the next compaction and clean; nothing to do first. */
  @Override
  public ArchiveFolder recover(ArchiveFolder folder, ArchiveLock lock, RunReport report) {
    return folder;
  }

  @Override
  public ActiveTimeline listActive() throws IOException {
    timeline = Hudi1ActiveTimeline.load(storage, table);
    listed.clear();
    timeline.files().forEach(f -> listed.put(f.file().location(), f));
    return timeline.asActiveTimeline();
  }

  @Override
  public TableFacts facts(ActiveTimeline active) throws IOException {
    return Hudi1TableFacts.load(storage, table, current(active));
  }

  @Override
  public ArchivalPlan plan(ActiveTimeline active, Instant now) throws IOException {
    return Hudi1Selection.plan(
        storage, table, current(active), context.policy(), context.metadataTableRules(), now);
  }

  /** The 1.x timeline of the files still in {@code active} (recovery may have deleted some). */
  private Hudi1ActiveTimeline current(ActiveTimeline active) {
    Set<StorageLocation> present = new HashSet<>();
    active.files().forEach(f -> present.add(f.file().location()));
    return new Hudi1ActiveTimeline(
        timeline.folder(),
        timeline.files().stream().filter(f -> present.contains(f.file().location())).toList(),
        timeline.malformed());
  }

  /**
   * The journal names the layer-0 file the run wrote: archived if the current snapshot lists it,
   * else a leftover deleted here, to be written again.
   */
  @Override
  public Set<TimelineInstant> settle(
      ArchiveFolder folder, ArchiveJournal journal, ActiveTimeline active) throws IOException {
    StorageLocation file = folder().resolve(journal.archiveFile());
    if (LsmFileName.parse(journal.archiveFile()).isEmpty()) {
      throw new IOException(
          "run journal "
              + ArchiveJournal.location(folder())
              + " names '"
              + journal.archiveFile()
              + "', which is not a history file");
    }
    LsmSnapshot snapshot = LsmSnapshot.current(storage, folder());
    boolean current =
        snapshot.files().stream().anyMatch(e -> e.name().fileName().equals(journal.archiveFile()));
    if (!current) {
      storage.deleteAll(List.of(file));
      return Set.of();
    }
    Set<InstantKey> keys = new HashSet<>();
    for (LsmHistoryInstant row : LsmParquetFile.read(storage.read(file), file, false)) {
      Action.fromHudi1Name(row.action())
          .ifPresent(a -> keys.add(new InstantKey(row.requestedTime(), a.comparable())));
    }
    Set<TimelineInstant> archived = new HashSet<>();
    for (TimelineFile f : active.files()) {
      if (keys.contains(f.instant().key())) {
        archived.add(f.instant());
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
    List<TimelineFile> files = active.filesOf(plan.files());
    if (files.isEmpty()) {
      return new ArchivedFiles(List.of(), List.of(), plan.barrier(), null);
    }
    // read before the journal: a history that cannot be read stops the run with nothing written
    LsmSnapshot before = LsmSnapshot.current(storage, folder());
    List<TimelineFile> archived = new ArrayList<>();
    Barrier barrier;
    try (LsmHistoryWriter.LayerZero file = writer.layerZero()) {
      barrier = encode(files, file, archived, lock, report).orElse(plan.barrier());
      if (file.isEmpty()) {
        return new ArchivedFiles(List.of(), List.of(), barrier, null);
      }
      report.enter(Phase.WRITE);
      lock.check();
      String name = file.fileName();
      new ArchiveJournal(name, 0, settings.owner()).create(storage, folder());
      LsmManifest.Entry entry = file.write(before);
      lock.check();
      written = Optional.of(writer.commit(before, List.of(), List.of(entry)));
      report.written(List.of(new ArchiveResult.WrittenFile(name, false, entry.length(), 1)));
    }
    return new ArchivedFiles(
        archived.stream().map(TimelineFile::instant).toList(), archived, barrier, null);
  }

  /**
   * Reads the files in order, in parallel a bounded window ahead, and adds each instant's row to
   * {@code file} once all its files are read; what was read then goes. A file that cannot be read
   * stops the run before its instant (invariant 5): at once with {@code
   * hoodie.fail.on.timeline.archiving} (nothing has been written yet), else what is older is
   * archived and the barrier names the file.
   *
   * @param archived gets the files of the instants added
   * @return the barrier an unreadable file set, if one did
   */
  private Optional<Barrier> encode(
      List<TimelineFile> files,
      LsmHistoryWriter.LayerZero file,
      List<TimelineFile> archived,
      ArchiveLock lock,
      RunReport report)
      throws IOException {
    ExecutorService pool =
        Executors.newFixedThreadPool(
            Math.max(1, Math.min(settings.readParallelism(), files.size())),
            DaemonThreads.factory("timeline-archive-read"));
    try {
      OrderedReads<byte[]> reads =
          new OrderedReads<>(
              pool, settings.readParallelism(), storage, files, (read, content) -> content);
      Map<Hudi1Instant, byte[]> states = new LinkedHashMap<>();
      List<TimelineFile> stateFiles = new ArrayList<>();
      for (int i = 0; i < files.size(); i++) {
        TimelineFile f = files.get(i);
        lock.checkIfDue();
        byte[] bytes;
        try {
          bytes = reads.take(i);
        } catch (InterruptedIOException e) {
          throw e;
        } catch (IOException cause) {
          if (settings.failOnArchivingError()) {
            throw cause;
          }
          report.warn(cause.getMessage() + "; selection stopped before this instant");
          return Optional.of(Barrier.unreadableFile(f));
        }
        if (!stateFiles.isEmpty() && !stateFiles.get(0).instant().key().equals(f.instant().key())) {
          addRow(states, stateFiles, file, archived);
        }
        states.put(listed.get(f.file().location()).instant(), bytes);
        stateFiles.add(f);
        report.progress(Phase.READ, i + 1, files.size());
      }
      addRow(states, stateFiles, file, archived);
      return Optional.empty();
    } finally {
      pool.shutdownNow();
    }
  }

  /** Adds the row of one instant, made from its state files, and forgets what was read. */
  private static void addRow(
      Map<Hudi1Instant, byte[]> states,
      List<TimelineFile> stateFiles,
      LsmHistoryWriter.LayerZero file,
      List<TimelineFile> archived) {
    file.add(ArchivedActionRow.of(states));
    archived.addAll(stateFiles);
    states.clear();
    stateFiles.clear();
  }

  /** After a run that archived: compacts the layers and cleans, as Hudi does after its writes. */
  @Override
  public void maintain(ArchiveFolder folder, ArchiveLock lock, RunReport report)
      throws IOException {
    if (written.isEmpty()) {
      return;
    }
    report.enter(Phase.MERGE);
    lock.check();
    LsmCompaction compaction = writer.compactAndClean(written.get());
    for (LsmCompaction.Merge merge : compaction.merges()) {
      report.merged(
          merge.sources().stream().map(e -> e.name().fileName()).toList(),
          merge.target().name().fileName());
    }
    report.purged(
        Stream.concat(compaction.deletedManifests().stream(), compaction.deletedFiles().stream())
            .map(StorageLocation::fileName)
            .toList());
  }
}
