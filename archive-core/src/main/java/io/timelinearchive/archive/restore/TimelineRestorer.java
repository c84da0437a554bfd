package io.timelinearchive.archive.restore;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.ArchiverSettings;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.folder.ArchiveLock;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.storage.ExclusiveCreate;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.Closeable;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Puts archived instants back into the active timeline, byte for byte, from the raw bytes each
 * entry of ours carries, under the archive lock (so no archiver deletes while it writes).
 *
 * <p>The order mirrors the archiver's deletions run backwards, so a reader never sees a state the
 * archiver itself could not have shown: the archiver deletes pending files first and then completed
 * ones oldest first; the restorer writes completed files newest first (the completed instants in
 * the active timeline stay one unbroken run of the newest, invariant 2) and only then the pending
 * files. An instant is therefore never seen pending-only, which a writer could take for a failed
 * write and roll back; it is completed from its first file on, like an instant the archiver is
 * halfway through deleting.
 *
 * <p>Restored instants stay in the archive: readers de-duplicate, and a later archival run may
 * archive them again.
 */
public final class TimelineRestorer implements Closeable {
  private final MetaStorage storage;
  private final boolean ownsStorage;
  private final StorageLocation base;
  private final ArchiverSettings settings;
  private final Clock clock;

  private TimelineRestorer(
      MetaStorage storage,
      boolean ownsStorage,
      StorageLocation base,
      Map<String, String> config,
      Clock clock) {
    this.storage = requireNonNull(storage, "storage is null");
    this.ownsStorage = ownsStorage;
    this.base = requireNonNull(base, "base is null");
    TimelineArchiver.checkKeys(requireNonNull(config, "config is null"));
    this.settings = ArchiverSettings.fromConfig(config);
    this.clock = requireNonNull(clock, "clock is null");
  }

  /** Opens the restorer for the table at {@code tableUri}, on the storage its scheme names. */
  public static TimelineRestorer open(String tableUri, Map<String, String> config)
      throws IOException {
    StorageLocation base = StorageLocation.of(tableUri);
    MetaStorage storage = MetaStorages.open(base, config);
    try {
      return new TimelineRestorer(storage, true, base, config, Clock.systemUTC());
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /** A restorer on a storage the caller opened (and closes). */
  public static TimelineRestorer create(
      MetaStorage storage, StorageLocation base, Map<String, String> config, Clock clock) {
    return new TimelineRestorer(storage, false, base, config, clock);
  }

  /**
   * Restores the archived instants with times from {@code fromTime} to {@code toTime}, both
   * inclusive. A state file the active timeline has already is never overwritten.
   *
   * @param force restore even instants older than the newest completed commit of the active
   *     timeline (rolling back or time-travelling past the archive boundary)
   * @param dryRun only report what would be restored
   * @throws RestoreRefusedException when an instant has no raw bytes (archived by Hudi itself), a
   *     state file exists with other bytes, the range stops short of archived completed instants
   *     that are not active (restoring it would leave a hole), or (without {@code force}) an
   *     instant would land before a newer completed commit; nothing was written
   * @throws io.timelinearchive.archive.folder.ArchiveLockedException if an archiver holds the lock
   */
  public RestoreResult restore(String fromTime, String toTime, boolean force, boolean dryRun)
      throws IOException {
    requireNonNull(fromTime, "fromTime is null");
    requireNonNull(toTime, "toTime is null");
    HoodieTable table = HoodieTable.load(storage, base);
    StorageLocation archiveFolder = table.archiveFolder();
    if (dryRun) {
      return plan(table, fromTime, toTime, force).result(true);
    }
    try (ArchiveLock lock =
        ArchiveLock.acquire(
            storage,
            ArchiveFolder.list(storage, archiveFolder),
            settings.owner(),
            settings.lockLease(),
            clock)) {
      Plan plan = plan(table, fromTime, toTime, force);
      List<TimelineInstant> written = new ArrayList<>();
      for (Restore r : plan.toWrite()) {
        lock.checkIfDue();
        write(table.metaFolder().resolve(r.instant().fileName()), r.bytes());
        written.add(r.instant());
      }
      return new RestoreResult(false, written, plan.alreadyActive(), plan.warnings());
    }
  }

  private void write(StorageLocation file, byte[] bytes) throws IOException {
    ExclusiveCreate.create(storage, file, bytes);
  }

  private Plan plan(HoodieTable table, String fromTime, String toTime, boolean force)
      throws IOException {
    ArchivedTimeline archived =
        ArchivedTimeline.load(
            storage, table.archiveFolder(), ArchiveReadOptions.all().between(fromTime, toTime));
    ActiveTimeline active = ActiveTimeline.load(storage, table.metaFolder());
    Map<String, FileEntry> activeFiles = new HashMap<>();
    for (TimelineFile f : active.files()) {
      activeFiles.put(f.instant().fileName(), f.file());
    }
    Optional<String> newestCommit =
        active.files().stream()
            .map(TimelineFile::instant)
            .filter(TimelineInstant::isCompleted)
            .filter(i -> i.action().comparable().isWriteAction())
            .map(TimelineInstant::time)
            .max(Comparator.naturalOrder());

    List<String> refusals = new ArrayList<>();
    // Completed instants archived after the range and not active again would sit between the
    // restored ones and the active timeline: a hole, which readers take for a gap in history.
    for (ArchivedInstant later :
        ArchivedTimeline.load(
                storage,
                table.archiveFolder(),
                new ArchiveReadOptions(Optional.of(toTime), Optional.empty(), false))
            .instants()) {
      if (later.instant().isCompleted()
          && later.instant().time().compareTo(toTime) > 0
          && !activeFiles.containsKey(later.instant().fileName())) {
        refusals.add(
            "the range would leave a hole: "
                + later.instant()
                + " is archived, newer than "
                + toTime
                + " and not active; extend --to up to the newest archived instant");
        break;
      }
    }
    Map<String, List<ArchivedInstant>> byTime = new TreeMap<>();
    for (ArchivedInstant a : archived.instants()) {
      byTime.computeIfAbsent(a.instant().time(), t -> new ArrayList<>()).add(a);
    }
    List<String> warnings = new ArrayList<>();
    List<Restore> completed = new ArrayList<>();
    List<Restore> pending = new ArrayList<>();
    List<TimelineInstant> alreadyActive = new ArrayList<>();
    for (Map.Entry<String, List<ArchivedInstant>> e : byTime.entrySet()) {
      List<ArchivedInstant> states = e.getValue();
      if (states.stream().noneMatch(a -> a.instant().isCompleted())) {
        // Written alone, a pending instant looks like a failed write that a writer rolls back.
        warnings.add(
            "skipped "
                + e.getKey()
                + ": the archive holds no completed state of it, only "
                + states.stream().map(a -> a.instant().toString()).toList());
        continue;
      }
      List<Restore> toWrite = new ArrayList<>();
      for (ArchivedInstant a : states) {
        Optional<byte[]> raw = a.rawBytes();
        if (raw.isEmpty()) {
          refusals.add(
              a.instant()
                  + " has no raw bytes in the archive (archived by Hudi, which keeps only"
                  + " converted metadata), so it cannot be restored exactly");
          continue;
        }
        FileEntry present = activeFiles.get(a.instant().fileName());
        if (present != null) {
          if (present.length() == raw.get().length
              && Arrays.equals(storage.read(present.location()), raw.get())) {
            alreadyActive.add(a.instant());
          } else {
            refusals.add(
                present.location() + " exists with other content than archived; never overwritten");
          }
          continue;
        }
        toWrite.add(new Restore(a.instant(), raw.get()));
      }
      if (!force
          && !toWrite.isEmpty()
          && newestCommit.isPresent()
          && e.getKey().compareTo(newestCommit.get()) < 0) {
        refusals.add(
            e.getKey()
                + " would land before the newer completed commit "
                + newestCommit.get()
                + " (--force restores it anyway)");
        continue;
      }
      for (Restore r : toWrite) {
        (r.instant().isCompleted() ? completed : pending).add(r);
      }
    }
    if (!refusals.isEmpty()) {
      throw new RestoreRefusedException("nothing restored", refusals);
    }
    completed.sort(Comparator.comparing(Restore::instant, TimelineInstant.ORDER).reversed());
    pending.sort(Comparator.comparing(Restore::instant, TimelineInstant.ORDER).reversed());
    List<Restore> order = new ArrayList<>(completed);
    order.addAll(pending);
    return new Plan(order, alreadyActive, warnings);
  }

  @Override
  public void close() throws IOException {
    if (ownsStorage) {
      storage.close();
    }
  }

  private record Restore(TimelineInstant instant, byte[] bytes) {}

  private record Plan(
      List<Restore> toWrite, List<TimelineInstant> alreadyActive, List<String> warnings) {
    RestoreResult result(boolean dryRun) {
      return new RestoreResult(
          dryRun, toWrite.stream().map(Restore::instant).toList(), alreadyActive, warnings);
    }
  }
}
