package io.timelinearchive.archive;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.ConfigValues;
import io.timelinearchive.format.ArchiveEntry;
import io.timelinearchive.format.ArchiveEntryConverter;
import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.format.ArchiveSchemas;
import io.timelinearchive.format.AvroInstantFiles;
import io.timelinearchive.format.InstantConversionException;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.ArchivalPolicy;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.select.EffectiveRules;
import io.timelinearchive.select.InstantSelector;
import io.timelinearchive.select.TableFacts;
import io.timelinearchive.storage.CountingMetaStorage;
import io.timelinearchive.storage.DaemonThreads;
import io.timelinearchive.storage.FileEntry;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.RequestCounts;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.InstantFileName;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.avro.generic.GenericRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Archives a table's old instants: selects them, appends them to the archive, then deletes them
 * from the active timeline, under the archive lock. Each step keeps the invariants of the archive
 * protocol: nothing is deleted before the archive holding it is durable, pending files go before
 * completed ones, completed ones strictly oldest first, and a run interrupted anywhere is finished
 * by the next one without archiving anything twice.
 *
 * <pre>{@code
 * try (TimelineArchiver archiver = TimelineArchiver.open("s3://bucket/tables/orders", config)) {
 *   ArchiveResult result = archiver.archiveIfRequired();
 * }
 * }</pre>
 */
public final class TimelineArchiver implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(TimelineArchiver.class);

  private final CountingMetaStorage storage;
  private final StorageLocation base;
  private final ArchivalPolicy policy;
  private final ArchiverSettings settings;
  private final Clock clock;
  private final ArchiveListener listener;
  private final boolean ownsStorage;
  private final List<String> settingWarnings = new ArrayList<>();
  private final Optional<Duration> historyMaxAge;

  private TimelineArchiver(
      MetaStorage storage,
      boolean ownsStorage,
      StorageLocation base,
      Map<String, String> config,
      Clock clock,
      ArchiveListener listener) {
    requireNonNull(storage, "storage is null");
    this.base = requireNonNull(base, "base is null");
    this.policy = ArchivalPolicy.fromConfig(config);
    this.settings = ArchiverSettings.fromConfig(config);
    this.clock = requireNonNull(clock, "clock is null");
    this.listener = requireNonNull(listener, "listener is null");
    this.storage = new CountingMetaStorage(storage);
    this.ownsStorage = ownsStorage;
    this.historyMaxAge = ConfigValues.duration(config, ArchiveHistoryPurger.MAX_AGE);
    if (historyMaxAge.isPresent() && historyMaxAge.get().isNegative()) {
      throw new IllegalArgumentException(
          ArchiveHistoryPurger.MAX_AGE + "=" + historyMaxAge.get() + " must not be negative");
    }
  }

  /**
   * Opens the archiver for the table at {@code tableUri}, on the storage its scheme names.
   *
   * @param config Hudi's archival keys as written (e.g. {@code hoodie.keep.min.commits}), {@code
   *     archive.*} settings, and the storage backend's prefixed keys
   * @throws IllegalArgumentException naming the key or URI when one is invalid
   */
  public static TimelineArchiver open(String tableUri, Map<String, String> config)
      throws IOException {
    return open(tableUri, config, ArchiveListener.NONE);
  }

  /** As {@link #open(String, Map)}, telling {@code listener} of each phase of a run. */
  public static TimelineArchiver open(
      String tableUri, Map<String, String> config, ArchiveListener listener) throws IOException {
    StorageLocation base = StorageLocation.of(tableUri);
    MetaStorage storage = MetaStorages.open(base, config);
    try {
      return new TimelineArchiver(storage, true, base, config, Clock.systemUTC(), listener);
    } catch (RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /** An archiver on a storage the caller opened (and closes), for tests and embedding. */
  public static TimelineArchiver create(
      MetaStorage storage,
      StorageLocation base,
      Map<String, String> config,
      Clock clock,
      ArchiveListener listener) {
    return new TimelineArchiver(storage, false, base, config, clock, listener);
  }

  /** What a run would archive now, and why selection stops there; changes nothing. */
  public ArchivalPlan plan() throws IOException {
    HoodieTable table = HoodieTable.load(storage, base);
    ActiveTimeline active = ActiveTimeline.load(storage, table.metaFolder());
    return select(table, active);
  }

  /**
   * Our own rules ({@code archive.retain.min-age}, {@code archive.max-instants-per-run}) as they
   * apply now to this table, one line each; empty when none is set.
   */
  public List<String> rules() throws IOException {
    HoodieTable table = HoodieTable.load(storage, base);
    List<String> rules =
        new ArrayList<>(EffectiveRules.describe(policy, clock.instant(), timelineZone(table)));
    historyMaxAge.ifPresent(
        age ->
            rules.add(
                "archive history max-age "
                    + EffectiveRules.format(age)
                    + ": archive files whose newest instant is older are deleted (never the"
                    + " newest file)"));
    return rules;
  }

  private static ZoneId timelineZone(HoodieTable table) {
    return TableFacts.fromProperties(table.properties(), ZoneId.systemDefault(), Optional.empty())
        .timelineZone();
  }

  /**
   * Archives what the policy selects, finishing first whatever an interrupted earlier run left.
   *
   * @throws ArchiveLockedException if another archiver holds the lock, or this one lost it
   * @throws InstantConversionException if a selected instant file cannot be read or converted and
   *     {@code hoodie.fail.on.timeline.archiving} is true (nothing was written or deleted)
   */
  public ArchiveResult archiveIfRequired() throws IOException {
    return new Run().archive();
  }

  @Override
  public void close() throws IOException {
    if (ownsStorage) {
      storage.close();
    }
  }

  private ArchivalPlan select(HoodieTable table, ActiveTimeline active) throws IOException {
    return InstantSelector.plan(
        active.timeline(), tableFacts(table, active), policy, clock.instant());
  }

  private TableFacts tableFacts(HoodieTable table, ActiveTimeline active) throws IOException {
    Optional<TableFacts.MetadataTable> metadataTable = Optional.empty();
    if (TableFacts.hasMetadataTable(table.properties())) {
      // One more listing, only for tables with a metadata table: Hudi never archives past its
      // latest compaction.
      metadataTable =
          Optional.of(
              TableFacts.MetadataTable.fromTimeline(
                  ActiveTimeline.load(storage, table.metaFolder().resolve("metadata/.hoodie"))
                      .timeline()));
    }
    TableFacts facts =
        TableFacts.fromProperties(table.properties(), ZoneId.systemDefault(), metadataTable);
    Optional<TableFacts.LatestClean> latestClean = latestClean(active);
    return latestClean.isPresent() ? facts.withLatestClean(latestClean.get()) : facts;
  }

  /**
   * What the latest completed clean retains, read from its plan (one more read), only where a
   * replacecommit makes it matter: Hudi keeps replacecommits the cleaner has not passed yet.
   */
  private Optional<TableFacts.LatestClean> latestClean(ActiveTimeline active) throws IOException {
    if (active.files().stream().noneMatch(f -> f.instant().action() == Action.REPLACE_COMMIT)) {
      return Optional.empty();
    }
    Optional<TimelineFile> clean =
        active.files().stream()
            .filter(f -> f.instant().action() == Action.CLEAN && f.instant().isCompleted())
            .max(Comparator.comparing(TimelineFile::instant));
    if (clean.isEmpty()) {
      return Optional.empty();
    }
    String time = clean.get().instant().time();
    TimelineInstant requested = new TimelineInstant(time, Action.CLEAN, State.REQUESTED);
    Optional<TimelineFile> plan =
        active.files().stream().filter(f -> f.instant().equals(requested)).findFirst();
    if (plan.isEmpty()) {
      return Optional.empty();
    }
    try {
      GenericRecord cleanerPlan =
          AvroInstantFiles.read(
              requested, ArchiveSchemas.CLEANER_PLAN, storage.read(plan.get().file().location()));
      Object retain = cleanerPlan.get("earliestInstantToRetain");
      Object timestamp = retain instanceof GenericRecord r ? r.get("timestamp") : null;
      return Optional.of(
          new TableFacts.LatestClean(time, Optional.ofNullable(timestamp).map(Object::toString)));
    } catch (InstantConversionException e) {
      // Selection then keeps every replacecommit and says so; the file itself is left alone.
      LOG.warn("cannot read the cleaner plan {}: {}", plan.get().file().location(), e.reason());
      return Optional.empty();
    }
  }

  /** One run; holds what the phases share. */
  private final class Run {
    private final Map<String, Duration> phases = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>(settingWarnings);
    private final List<TimelineInstant> recovered = new ArrayList<>();
    private final List<ArchiveResult.WrittenFile> written = new ArrayList<>();
    private final RequestCounts requestsBefore = storage.counts();
    private final Map<String, Long> serviceRequestsBefore = storage.serviceRequests();
    private int deleted;
    private int auxDeleted;
    private List<String> purged = List.of();
    private Optional<ArchiveMerger.Merge> merged = Optional.empty();
    private long phaseStart = System.nanoTime();

    private void phase(String name) {
      long now = System.nanoTime();
      phases.merge(name, Duration.ofNanos(now - phaseStart), Duration::plus);
      phaseStart = now;
    }

    ArchiveResult archive() throws IOException {
      HoodieTable table = HoodieTable.load(storage, base);
      StorageLocation archiveFolder = table.archiveFolder();
      List<FileEntry> archiveListing = storage.list(archiveFolder).toList();
      listener.onPhase(ArchiveListener.Phase.LOCK);
      Outcome outcome;
      try (ArchiveLock lock =
          ArchiveLock.acquire(
              storage,
              archiveFolder,
              archiveListing,
              settings.owner(),
              settings.lockLease(),
              clock)) {
        phase("lock");
        ActiveTimeline active = ActiveTimeline.load(storage, table.metaFolder());
        int activeBefore = active.files().size();
        for (InstantFileName.Result.Malformed m : active.malformed()) {
          warnings.add(
              "left alone: " + table.metaFolder().resolve(m.fileName()) + " (" + m.reason() + ")");
        }
        phase("list");

        ArchiveMerger merger =
            new ArchiveMerger(storage, archiveFolder, settings, lock, clock, warnings::add);
        archiveListing = merger.recover(archiveListing);
        active = recover(archiveFolder, archiveListing, active, lock);
        phase("recover");

        listener.onPhase(ArchiveListener.Phase.SELECT);
        ArchivalPlan plan = select(table, active);
        warnings.addAll(plan.warnings());
        phase("select");

        listener.onPhase(ArchiveListener.Phase.READ);
        Conversion conversion = readAndWrite(active, plan, archiveFolder, archiveListing, lock);

        List<TimelineInstant> archived = conversion.instants();
        if (!archived.isEmpty()) {
          List<TimelineFile> toDelete =
              active.files().stream()
                  .filter(f -> conversion.keys().contains(f.instant().key()))
                  .toList();
          deleteArchived(toDelete, lock);
          phase("delete");

          cleanAux(table, archived);
          phase("aux");

          ArchiveJournal.delete(storage, archiveFolder);
        }
        if (conversion.failure() != null) {
          // Archived before the failure (a run too large to buffer) and tidied up: now report it.
          throw conversion.failure();
        }
        merged = merger.mergeIfDue(archiveListing, written);
        if (merged.isPresent()) {
          archiveListing = storage.list(archiveFolder).toList();
        }
        phase("merge");
        if (historyMaxAge.isPresent()) {
          purged =
              ArchiveHistoryPurger.purge(
                  storage,
                  archiveFiles(archiveListing),
                  written.stream().map(ArchiveResult.WrittenFile::name).toList(),
                  historyMaxAge.get(),
                  clock.instant(),
                  timelineZone(table),
                  lock);
          phase("purge");
        }
        outcome = new Outcome(activeBefore, plan, conversion);
      }
      // The result is made after the lock is released, so its request counts include the release.
      phase("unlock");
      return result(outcome);
    }

    private ArchiveResult result(Outcome outcome) {
      Map<String, Integer> byAction = new TreeMap<>();
      outcome
          .conversion()
          .keys()
          .forEach(k -> byAction.merge(k.action().actionName(), 1, Integer::sum));
      return new ArchiveResult(
          outcome.conversion().instants(),
          new TreeMap<>(byAction),
          recovered,
          written,
          deleted,
          auxDeleted,
          outcome.conversion().barrier(),
          outcome.plan().barriers(),
          warnings,
          storage.counts().minus(requestsBefore),
          serviceRequestsSince(serviceRequestsBefore),
          phases,
          outcome.activeBefore(),
          outcome.activeBefore() - deleted,
          purged,
          merged.map(ArchiveMerger.Merge::sources).orElse(List.of()),
          merged.map(ArchiveMerger.Merge::mergedFile));
    }

    /** Finishes an interrupted run: deletes the active files it had archived already. */
    private ActiveTimeline recover(
        StorageLocation archiveFolder,
        List<FileEntry> archiveListing,
        ActiveTimeline active,
        ArchiveLock lock)
        throws IOException {
      Optional<ArchiveJournal> journal = ArchiveJournal.read(storage, archiveFolder);
      if (journal.isEmpty()) {
        return active;
      }
      listener.onPhase(ArchiveListener.Phase.RECOVER);
      OptionalInt journalVersion = ArchiveFileName.version(journal.get().archiveFile());
      if (journalVersion.isEmpty()) {
        throw new IOException(
            "run journal "
                + ArchiveJournal.location(archiveFolder)
                + " names '"
                + journal.get().archiveFile()
                + "', which is not an archive file");
      }
      Set<TimelineInstant> archived = new HashSet<>();
      for (FileEntry file : archiveFiles(archiveListing)) {
        int version = ArchiveFileName.version(file.name()).getAsInt();
        if (version < journalVersion.getAsInt()) {
          continue;
        }
        boolean journalFile = version == journalVersion.getAsInt();
        long from = journalFile ? journal.get().offset() : 0;
        ArchiveFileContent content =
            ArchivedTimeline.readFile(storage, journalFile ? readable(file, from) : file, from);
        content.instants().forEach(a -> archived.add(a.instant()));
      }
      List<TimelineFile> done =
          active.files().stream().filter(f -> archived.contains(f.instant())).toList();
      // A completed file goes only with all its pending siblings archived too: entries are written
      // in state order, so this always holds unless someone edited the archive by hand.
      Set<InstantKey> incomplete = new HashSet<>();
      for (TimelineFile f : active.files()) {
        if (f.instant().state().isPending() && !archived.contains(f.instant())) {
          incomplete.add(f.instant().key());
        }
      }
      List<TimelineFile> deletable =
          done.stream()
              .filter(f -> !(f.instant().isCompleted() && incomplete.contains(f.instant().key())))
              .toList();
      if (!deletable.isEmpty()) {
        warnings.add(
            "finished an interrupted run: "
                + deletable.size()
                + " instant file(s) were archived already and are now deleted");
      }
      deleteArchived(deletable, lock);
      deletable.forEach(f -> recovered.add(f.instant()));
      ArchiveJournal.delete(storage, archiveFolder);
      Set<TimelineFile> gone = new HashSet<>(deletable);
      ActiveTimeline remaining =
          new ActiveTimeline(
              active.metaFolder(),
              active.files().stream().filter(f -> !gone.contains(f)).toList(),
              active.malformed());
      return remaining;
    }

    /**
     * Reads the selected instant files (in parallel, a bounded window ahead) and writes their
     * entries to the archive in bounded steps, each step between two instants. An unreadable file
     * stops archiving before its instant; with {@code hoodie.fail.on.timeline.archiving} the run
     * then fails, at once if nothing was written yet, else once what came before is archived and
     * deleted.
     */
    /**
     * The file with the length a reader finds now, which its listing may not know: HDFS lists a
     * file that a killed writer left open without its last block, though the bytes it had synced
     * are there to read. Trusting the listing would miss entries and archive them again.
     */
    private FileEntry readable(FileEntry file, long from) throws IOException {
      long length = from;
      try (InputStream in = storage.open(file.location())) {
        in.skipNBytes(from);
        byte[] buffer = new byte[64 * 1024];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
          length += n;
        }
      } catch (java.io.EOFException e) {
        // Shorter than the journal's offset: readFile reports that with the file's name.
        return file;
      }
      return length == file.length()
          ? file
          : new FileEntry(file.location(), length, file.lastModified());
    }

    private Conversion readAndWrite(
        ActiveTimeline active,
        ArchivalPlan plan,
        StorageLocation archiveFolder,
        List<FileEntry> archiveListing,
        ArchiveLock lock)
        throws IOException {
      Set<InstantKey> selected = new HashSet<>(plan.instants());
      Map<InstantKey, List<TimelineFile>> filesByKey = new TreeMap<>();
      for (TimelineFile f : active.files()) {
        if (selected.contains(f.instant().key())) {
          filesByKey.computeIfAbsent(f.instant().key(), k -> new ArrayList<>()).add(f);
        }
      }
      List<TimelineFile> files = filesByKey.values().stream().flatMap(List::stream).toList();
      ArchiveEntryConverter converter = ArchiveEntryConverter.create();
      ExecutorService pool =
          Executors.newFixedThreadPool(
              Math.max(1, Math.min(settings.readParallelism(), files.size())),
              DaemonThreads.factory("timeline-archive-read"));
      // Enough reads ahead to keep every reader busy, few enough to bound memory.
      int window = settings.readParallelism() * 4;
      List<TimelineInstant> instants = new ArrayList<>();
      Set<InstantKey> keys = new java.util.LinkedHashSet<>();
      Barrier barrier = plan.barrier();
      IOException failure = null;
      try (ArchiveWriter writer =
          new ArchiveWriter(
              storage,
              archiveFolder,
              archiveFiles(archiveListing),
              settings,
              policy.archivalBatch(),
              lock)) {
        List<Future<ArchiveEntry>> futures = new ArrayList<>();
        InstantKey last = null;
        for (int i = 0; i < files.size(); i++) {
          while (futures.size() < files.size() && futures.size() < i + window) {
            TimelineFile next = files.get(futures.size());
            futures.add(pool.submit(() -> convert(converter, next)));
          }
          TimelineFile f = files.get(i);
          // A long read must renew the lease, or the run outlives it and gives up at the end.
          lock.checkIfDue();
          ArchiveEntry entry;
          try {
            entry = futures.get(i).get();
            futures.set(i, null);
          } catch (ExecutionException e) {
            IOException cause = asIOException(e.getCause(), f);
            if (policy.failOnArchivingError() && !writer.hasWritten()) {
              throw cause;
            }
            InstantKey cut = f.instant().key();
            writer.drop(cut);
            instants.removeIf(instant -> instant.key().equals(cut));
            keys.remove(cut);
            if (policy.failOnArchivingError()) {
              failure = cause;
            } else {
              warnings.add(cause.getMessage() + "; selection stopped before this instant");
            }
            barrier =
                new Barrier(
                    Barrier.Scope.COMMITS,
                    Barrier.Kind.UNREADABLE_FILE,
                    Optional.of(f.instant().time()),
                    "unreadable instant file " + f.file().location());
            break;
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading instant files");
          }
          // Only between instants: an instant's files are written together or not at all.
          if (!f.instant().key().equals(last)) {
            writer.endOfInstant();
            if (writer.full()) {
              flush(writer);
            }
          }
          writer.add(entry);
          instants.add(entry.instant());
          keys.add(f.instant().key());
          last = f.instant().key();
        }
        flush(writer);
        writer.close();
        written.addAll(writer.written());
      } finally {
        pool.shutdownNow();
      }
      return new Conversion(instants, keys, barrier, failure);
    }

    private void flush(ArchiveWriter writer) throws IOException {
      phase("read");
      if (writer.isEmpty()) {
        return;
      }
      if (!writer.hasWritten()) {
        listener.onPhase(ArchiveListener.Phase.WRITE);
      }
      writer.flush();
      phase("write");
    }

    private ArchiveEntry convert(ArchiveEntryConverter converter, TimelineFile f)
        throws IOException {
      // The listing gave the length: an empty file needs no request at all.
      byte[] content = f.file().length() == 0 ? new byte[0] : storage.read(f.file().location());
      try {
        return converter.convert(f.instant(), f.file().lastModified(), content);
      } catch (InstantConversionException e) {
        throw new InstantConversionException(
            f.instant(), f.file().location() + ": " + e.reason(), e);
      }
    }

    private IOException asIOException(Throwable cause, TimelineFile f) {
      if (cause instanceof NoSuchFileException) {
        return new InstantConversionException(
            f.instant(),
            f.file().location() + " disappeared while archiving (another process deleted it)",
            cause);
      }
      if (cause instanceof IOException io) {
        return io;
      }
      if (cause instanceof UncheckedIOException u) {
        return u.getCause();
      }
      return new InstantConversionException(f.instant(), f.file().location() + ": " + cause, cause);
    }

    /**
     * Deletes archived instant files: pending ones first (batched: their order cannot make a hole),
     * then completed ones one at a time, oldest first, so a concurrent reader never sees a newer
     * completed instant gone while an older one of this run is still there.
     */
    private void deleteArchived(List<TimelineFile> files, ArchiveLock lock) throws IOException {
      if (files.isEmpty()) {
        return;
      }
      listener.onPhase(ArchiveListener.Phase.DELETE_PENDING);
      lock.check();
      List<StorageLocation> pending =
          files.stream()
              .filter(f -> f.instant().state().isPending())
              .map(f -> f.file().location())
              .toList();
      if (!pending.isEmpty()) {
        storage.deleteAll(pending);
        deleted += pending.size();
      }
      listener.onPhase(ArchiveListener.Phase.DELETE_COMPLETED);
      List<TimelineFile> completed =
          files.stream()
              .filter(f -> f.instant().isCompleted())
              .sorted(Comparator.comparing(TimelineFile::instant))
              .toList();
      for (TimelineFile f : completed) {
        lock.checkIfDue();
        storage.deleteAll(List.of(f.file().location()));
        deleted++;
      }
    }

    /**
     * Removes copies of instant files in {@code .hoodie/.aux/} at or before the newest archived
     * commit or deltacommit (Hudi 0.5–0.13 copied compaction plans there); nothing else.
     */
    private void cleanAux(HoodieTable table, List<TimelineInstant> archived) throws IOException {
      Optional<String> threshold =
          archived.stream()
              .filter(TimelineInstant::isCompleted)
              .filter(i -> i.action() == Action.COMMIT || i.action() == Action.DELTA_COMMIT)
              .map(TimelineInstant::time)
              .max(Comparator.naturalOrder());
      if (threshold.isEmpty()) {
        return;
      }
      List<StorageLocation> old = new ArrayList<>();
      for (FileEntry f : storage.list(table.auxFolder()).toList()) {
        if (InstantFileName.parse(f.name()) instanceof InstantFileName.Result.Parsed p
            && p.instant().time().compareTo(threshold.get()) <= 0) {
          old.add(f.location());
        }
      }
      if (!old.isEmpty()) {
        storage.deleteAll(old);
        auxDeleted += old.size();
      }
    }
  }

  private Map<String, Long> serviceRequestsSince(Map<String, Long> before) {
    Map<String, Long> delta = new TreeMap<>();
    storage
        .serviceRequests()
        .forEach(
            (operation, n) -> {
              long d = n - before.getOrDefault(operation, 0L);
              if (d > 0) {
                delta.put(operation, d);
              }
            });
    return delta;
  }

  /** Archive files of a listing, by version ascending. */
  static List<FileEntry> archiveFiles(List<FileEntry> listing) {
    return listing.stream()
        .filter(f -> ArchiveFileName.version(f.name()).isPresent())
        .sorted(Comparator.comparingInt(f -> ArchiveFileName.version(f.name()).getAsInt()))
        .toList();
  }

  private record Outcome(int activeBefore, ArchivalPlan plan, Conversion conversion) {}

  /** What a run archived; {@code failure}, if not null, is thrown once that is tidied up. */
  private record Conversion(
      List<TimelineInstant> instants, Set<InstantKey> keys, Barrier barrier, IOException failure) {}
}
