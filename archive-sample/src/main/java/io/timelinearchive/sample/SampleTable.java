package io.timelinearchive.sample;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Writes a realistic Hudi 0.x table timeline: commit metadata JSON with write stats, Avro cleaner
 * plans and clean metadata, compaction plans, a rollback, a savepoint, and a pending compaction at
 * the end, laid out as Hudi lays them out. Deterministic for a given spec. Used by the demo, the
 * tests and the benchmarks, on any storage.
 */
public final class SampleTable {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  /**
   * What to write.
   *
   * @param writeCommits number of write commits (deltacommits for merge-on-read, else commits)
   * @param mergeOnRead merge-on-read (deltacommits and compactions) or copy-on-write (commits)
   * @param compactEvery a compaction after this many deltacommits (merge-on-read only; 0 = never)
   * @param cleanEvery a clean after this many write commits (0 = never)
   * @param savepointAt the savepoint follows this write commit (0 = no savepoint)
   * @param rollbackAt a rollback of a failed write follows this write commit (0 = none)
   * @param pendingCompaction end with a requested compaction that has not run yet
   * @param start the first instant time
   * @param seed for the random parts of the contents
   */
  public record Spec(
      int writeCommits,
      boolean mergeOnRead,
      int compactEvery,
      int cleanEvery,
      int savepointAt,
      int rollbackAt,
      boolean pendingCompaction,
      LocalDateTime start,
      long seed) {
    public Spec {
      requireNonNull(start, "start is null");
      if (writeCommits < 1) {
        throw new IllegalArgumentException("writeCommits must be at least 1");
      }
    }

    /** The demo's table: about 400 instant files on a merge-on-read table. */
    public static Spec demo() {
      return new Spec(60, true, 5, 1, 40, 25, true, LocalDateTime.of(2026, 11, 1, 8, 0), 42);
    }

    /** A table of about {@code instantFiles} files without savepoint or pending barrier. */
    public static Spec ofSize(int instantFiles, long seed) {
      int commits = Math.max(1, instantFiles / 5);
      return new Spec(commits, false, 0, 2, 0, 0, false, LocalDateTime.of(2026, 1, 1, 0, 0), seed);
    }
  }

  /** What was written: every instant file, by name. */
  public record Written(StorageLocation base, SortedMap<String, TimelineInstant> files) {
    public Map<String, Integer> instantsByAction() {
      Map<String, Integer> counts = new TreeMap<>();
      files.values().stream()
          .map(TimelineInstant::key)
          .distinct()
          .forEach(k -> counts.merge(k.action().actionName(), 1, Integer::sum));
      return counts;
    }
  }

  private final MetaStorage storage;
  private final StorageLocation meta;
  private final Spec spec;
  private final Random random;
  private final SampleInstantFiles files;
  private final SortedMap<String, TimelineInstant> written = new TreeMap<>();
  private LocalDateTime clock;

  private SampleTable(MetaStorage storage, StorageLocation base, Spec spec) {
    this.storage = storage;
    this.meta = base.resolve(HoodieTable.META_FOLDER);
    this.spec = spec;
    this.random = new Random(spec.seed());
    this.files = new SampleInstantFiles(random);
    this.clock = spec.start();
  }

  /**
   * Writes {@code hoodie.properties} and the timeline below {@code base}.
   *
   * @throws java.nio.file.FileAlreadyExistsException if a file to write exists already
   */
  public static Written write(MetaStorage storage, StorageLocation base, Spec spec)
      throws IOException {
    SampleTable table = new SampleTable(storage, base, spec);
    table.writeAll();
    return new Written(base, table.written);
  }

  private void writeAll() throws IOException {
    String name = "sample_" + (spec.mergeOnRead() ? "mor" : "cow");
    String properties =
        "hoodie.table.name="
            + name
            + "\nhoodie.table.type="
            + (spec.mergeOnRead() ? "MERGE_ON_READ" : "COPY_ON_WRITE")
            + "\nhoodie.table.version=6\nhoodie.timeline.layout.version=1"
            + "\nhoodie.archivelog.folder=archived\nhoodie.table.partition.fields=dt\n";
    storage.createExclusive(meta.resolve(HoodieTable.PROPERTIES_FILE), properties.getBytes(UTF_8));

    List<String> completedWrites = new ArrayList<>();
    int sinceCompaction = 0;
    for (int n = 1; n <= spec.writeCommits(); n++) {
      String t = next();
      Action action = spec.mergeOnRead() ? Action.DELTA_COMMIT : Action.COMMIT;
      put(new TimelineInstant(t, action, State.REQUESTED), new byte[0]);
      put(
          new TimelineInstant(t, action, State.INFLIGHT),
          SampleInstantFiles.json(files.inflightMetadata()));
      put(
          new TimelineInstant(t, action, State.COMPLETED),
          SampleInstantFiles.json(files.commitMetadata(t, completedWrites, false)));
      completedWrites.add(t);
      sinceCompaction++;

      if (spec.mergeOnRead() && spec.compactEvery() > 0 && sinceCompaction == spec.compactEvery()) {
        String c = next();
        put(
            new TimelineInstant(c, Action.COMPACTION, State.REQUESTED),
            SampleInstantFiles.avro(files.compactionPlan(completedWrites)));
        put(new TimelineInstant(c, Action.COMPACTION, State.INFLIGHT), new byte[0]);
        put(
            new TimelineInstant(c, Action.COMMIT, State.COMPLETED),
            SampleInstantFiles.json(files.commitMetadata(c, completedWrites, true)));
        completedWrites.add(c);
        sinceCompaction = 0;
      }
      if (spec.cleanEvery() > 0 && n % spec.cleanEvery() == 0 && completedWrites.size() > 2) {
        String k = next();
        String retain = completedWrites.get(Math.max(0, completedWrites.size() - 10));
        byte[] plan =
            SampleInstantFiles.avro(
                files.cleanerPlan(retain, completedWrites.get(completedWrites.size() - 1)));
        put(new TimelineInstant(k, Action.CLEAN, State.REQUESTED), plan);
        put(new TimelineInstant(k, Action.CLEAN, State.INFLIGHT), plan);
        put(
            new TimelineInstant(k, Action.CLEAN, State.COMPLETED),
            SampleInstantFiles.avro(files.cleanMetadata(k, retain, completedWrites)));
      }
      if (n == spec.rollbackAt()) {
        String failed = next();
        String r = next();
        put(
            new TimelineInstant(r, Action.ROLLBACK, State.REQUESTED),
            SampleInstantFiles.avro(files.rollbackPlan(failed, action)));
        put(new TimelineInstant(r, Action.ROLLBACK, State.INFLIGHT), new byte[0]);
        put(
            new TimelineInstant(r, Action.ROLLBACK, State.COMPLETED),
            SampleInstantFiles.avro(files.rollbackMetadata(r, failed, action)));
      }
      if (n == spec.savepointAt()) {
        // Hudi gives a savepoint the time of the commit it keeps.
        put(new TimelineInstant(t, Action.SAVEPOINT, State.INFLIGHT), new byte[0]);
        put(
            new TimelineInstant(t, Action.SAVEPOINT, State.COMPLETED),
            SampleInstantFiles.avro(files.savepointMetadata(t)));
      }
    }
    if (spec.pendingCompaction()) {
      String c = next();
      put(
          new TimelineInstant(c, Action.COMPACTION, State.REQUESTED),
          SampleInstantFiles.avro(files.compactionPlan(completedWrites)));
    }
  }

  private String next() {
    clock = clock.plusSeconds(30 + random.nextInt(90)).plusNanos(random.nextInt(1000) * 1_000_000L);
    return TIME.format(clock);
  }

  private void put(TimelineInstant instant, byte[] content) throws IOException {
    String name = instant.fileName();
    storage.createExclusive(meta.resolve(name), content);
    written.put(name, instant);
  }
}
