package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.folder.ArchiveFolder;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.archive.restore.RestoreRefusedException;
import io.timelinearchive.archive.restore.RestoreResult;
import io.timelinearchive.archive.restore.TimelineRestorer;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.InstantKey;
import io.timelinearchive.timeline.TimelineInstant;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Retention by age, the per-run cap and unarchive, end to end through the archiver and the restorer
 * on any storage; each backend's tests run them on their own store.
 */
public final class BeyondHudiScenarios {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  private BeyondHudiScenarios() {}

  /** 20 commits and about 17 cleans: some 110 instant files. */
  public static SampleTable.Spec table() {
    return new SampleTable.Spec(
        20, false, 0, 1, 0, 0, false, LocalDateTime.of(2026, 3, 1, 0, 0), 20);
  }

  private static List<String> completedCommitTimes(SampleTable.Written written) {
    return written.files().values().stream()
        .filter(i -> i.action() == Action.COMMIT && i.isCompleted())
        .map(TimelineInstant::time)
        .sorted()
        .toList();
  }

  /**
   * The moment at which {@code time} (written in the JVM's zone, as Hudi's LOCAL) is {@code age}
   * old.
   */
  private static java.time.Instant whenAged(String time, Duration age) {
    return LocalDateTime.parse(time, TIME).atZone(ZoneId.systemDefault()).toInstant().plus(age);
  }

  /** {@code archive.retain.min-age} stops archival at the cutoff, later than the count rules. */
  public static void minAgeStopsAtTheCutoff(MetaStorage storage, StorageLocation base)
      throws Exception {
    SampleTable.Written written = SampleTable.write(storage, base, table());
    StorageLocation meta = base.resolve(".hoodie");
    InvariantChecker checker = new InvariantChecker(InvariantChecker.snapshot(storage, meta));
    String ninth = completedCommitTimes(written).get(8);
    // one second past the ninth commit's first day: it is old enough, the tenth (30 s or more
    // later) is not
    MutableClock clock = new MutableClock(whenAged(ninth, Duration.ofDays(1).plusSeconds(1)));
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("archive.retain.min-age", "1d");

    ArchiveResult result;
    List<String> rules;
    try (TimelineArchiver archiver =
        TimelineArchiver.create(storage, base, config, clock, ArchiveListener.NONE)) {
      rules = archiver.rules();
      result = archiver.archiveIfRequired();
    }

    String cutoff = TIME.format(LocalDateTime.parse(ninth, TIME).plusSeconds(1));
    assertThat(rules)
        .containsExactly("retain min-age 1d: nothing younger than " + cutoff + " is archived");
    assertThat(result.barrier().kind()).isEqualTo(Barrier.Kind.MIN_AGE);
    assertThat(result.archivedByAction()).containsEntry("commit", 9);
    assertThat(result.archived()).allMatch(i -> i.time().compareTo(cutoff) <= 0);
    assertThat(checker.check(storage, meta, meta.resolve("archived"))).isEmpty();
  }

  /**
   * {@code archive.max-instants-per-run} spreads the work over runs: each archives at most the cap,
   * the oldest first, and the invariants hold after each.
   */
  public static void runCapSpreadsTheWorkOverRuns(MetaStorage storage, StorageLocation base)
      throws Exception {
    SampleTable.write(storage, base, table());
    StorageLocation meta = base.resolve(".hoodie");
    InvariantChecker checker = new InvariantChecker(InvariantChecker.snapshot(storage, meta));
    MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
    Set<InstantKey> uncapped;
    try (TimelineArchiver archiver =
        TimelineArchiver.create(
            storage, base, TestTables.SMALL_RETENTION, clock, ArchiveListener.NONE)) {
      uncapped = new HashSet<>(archiver.plan().instants());
    }
    assertThat(uncapped).hasSizeGreaterThan(20);
    Map<String, String> config = new HashMap<>(TestTables.SMALL_RETENTION);
    config.put("archive.max-instants-per-run", "8");

    Set<InstantKey> archived = new HashSet<>();
    int runs = 0;
    ArchiveResult last;
    while (true) {
      ArchiveResult result;
      try (TimelineArchiver archiver =
          TimelineArchiver.create(storage, base, config, clock, ArchiveListener.NONE)) {
        result = archiver.archiveIfRequired();
      }
      assertThat(checker.check(storage, meta, meta.resolve("archived"))).isEmpty();
      Set<InstantKey> keys = new HashSet<>();
      result.archived().forEach(i -> keys.add(i.key()));
      last = result;
      if (keys.isEmpty()) {
        break;
      }
      runs++;
      assertThat(keys).hasSizeLessThanOrEqualTo(8);
      assertThat(archived).doesNotContainAnyElementsOf(keys);
      archived.addAll(keys);
      if (keys.size() == 8) {
        assertThat(result.barriers()).anyMatch(b -> b.kind() == Barrier.Kind.RUN_CAP);
      }
      assertThat(runs).as("runs").isLessThanOrEqualTo(uncapped.size());
    }
    // The count rules apply to each run as Hudi applies them: once no more than
    // hoodie.keep.max.commits commits are left, the rest waits until the timeline grows past it
    // again, so the capped runs archive the oldest part of what one uncapped run would.
    assertThat(uncapped).containsAll(archived);
    assertThat(runs).isGreaterThanOrEqualTo(2);
    assertThat(archived).hasSizeGreaterThan(8);
    assertThat(last.barrier().kind()).isEqualTo(Barrier.Kind.BELOW_MAX);
  }

  /**
   * Unarchive puts archived instants back byte for byte, refuses without force to land them before
   * a newer completed commit, writes completed files newest first and pending ones after, keeps
   * them in the archive, and a second restore finds everything present.
   */
  public static void unarchiveRestoresByteExactly(MetaStorage storage, StorageLocation base)
      throws Exception {
    SampleTable.Written written = SampleTable.write(storage, base, table());
    StorageLocation meta = base.resolve(".hoodie");
    Map<String, byte[]> original = InvariantChecker.snapshot(storage, meta);
    InvariantChecker checker = new InvariantChecker(original);
    MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
    try (TimelineArchiver archiver =
        TimelineArchiver.create(
            storage, base, TestTables.SMALL_RETENTION, clock, ArchiveListener.NONE)) {
      assertThat(archiver.archiveIfRequired().archivedByAction()).containsEntry("commit", 15);
    }
    List<String> commits = completedCommitTimes(written);
    String from = commits.get(3);
    // up to the newest archived instant: a range stopping short of it would leave a hole
    String to =
        ArchivedTimeline.load(storage, meta.resolve("archived"), ArchiveReadOptions.metadataOnly())
            .instants()
            .stream()
            .map(a -> a.instant().time())
            .max(String::compareTo)
            .orElseThrow();
    Map<String, byte[]> activeBefore = InvariantChecker.snapshot(storage, meta);
    List<String> expected =
        written.files().values().stream()
            .filter(i -> i.time().compareTo(from) >= 0 && i.time().compareTo(to) <= 0)
            .map(TimelineInstant::fileName)
            .filter(name -> !activeBefore.containsKey(name))
            .sorted()
            .toList();
    assertThat(expected).hasSizeGreaterThan(12);

    try (TimelineRestorer restorer = TimelineRestorer.create(storage, base, Map.of(), clock)) {
      assertThatThrownBy(() -> restorer.restore(from, to, false, false))
          .isInstanceOf(RestoreRefusedException.class)
          .hasMessageContaining("would land before the newer completed commit")
          .hasMessageContaining("--force");
      assertThat(InvariantChecker.snapshot(storage, meta).keySet())
          .isEqualTo(activeBefore.keySet());

      assertThatThrownBy(() -> restorer.restore(from, commits.get(6), true, false))
          .isInstanceOf(RestoreRefusedException.class)
          .hasMessageContaining("would leave a hole");

      RestoreResult dry = restorer.restore(from, to, true, true);
      assertThat(dry.dryRun()).isTrue();
      assertThat(dry.restored().stream().map(TimelineInstant::fileName).sorted().toList())
          .isEqualTo(expected);
      assertThat(InvariantChecker.snapshot(storage, meta).keySet())
          .isEqualTo(activeBefore.keySet());

      RestoreResult result = restorer.restore(from, to, true, false);

      List<String> restored =
          result.restored().stream().map(TimelineInstant::fileName).sorted().toList();
      assertThat(restored).isEqualTo(expected);
      assertThat(result.alreadyActive()).isEmpty();
      Map<String, byte[]> after = InvariantChecker.snapshot(storage, meta);
      for (String name : expected) {
        assertThat(after.get(name)).as(name).isEqualTo(original.get(name));
      }
      // completed files newest first, then the pending ones: the reverse of archival's deletes
      List<TimelineInstant> order = result.restored();
      int firstPending = 0;
      while (firstPending < order.size() && order.get(firstPending).isCompleted()) {
        firstPending++;
      }
      assertThat(order.subList(firstPending, order.size())).noneMatch(TimelineInstant::isCompleted);
      List<TimelineInstant> completedOrder = new ArrayList<>(order.subList(0, firstPending));
      assertThat(completedOrder).isSortedAccordingTo(TimelineInstant.ORDER.reversed());
      // they stay in the archive, and nothing was lost anywhere
      assertThat(
              ArchivedTimeline.load(
                      storage,
                      meta.resolve("archived"),
                      ArchiveReadOptions.metadataOnly().between(from, to))
                  .instants())
          .hasSize(expected.size());
      assertThat(checker.check(storage, meta, meta.resolve("archived"))).isEmpty();

      RestoreResult again = restorer.restore(from, to, true, false);
      assertThat(again.restored()).isEmpty();
      assertThat(again.alreadyActive()).hasSize(expected.size());
    }
  }

  /** A state file in the way, with other bytes than archived, is never overwritten. */
  public static void unarchiveNeverOverwrites(MetaStorage storage, StorageLocation base)
      throws Exception {
    SampleTable.Written written = SampleTable.write(storage, base, table());
    StorageLocation meta = base.resolve(".hoodie");
    MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
    try (TimelineArchiver archiver =
        TimelineArchiver.create(
            storage, base, TestTables.SMALL_RETENTION, clock, ArchiveListener.NONE)) {
      archiver.archiveIfRequired();
    }
    String time = completedCommitTimes(written).get(2);
    StorageLocation inTheWay = meta.resolve(time + ".commit");
    byte[] other = "{\"someone\": \"else\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    storage.createExclusive(inTheWay, other);
    Set<String> before = InvariantChecker.snapshot(storage, meta).keySet();

    try (TimelineRestorer restorer = TimelineRestorer.create(storage, base, Map.of(), clock)) {
      assertThatThrownBy(() -> restorer.restore(time, "99999999999999999", true, false))
          .isInstanceOf(RestoreRefusedException.class)
          .hasMessageContaining(inTheWay + " exists with other content than archived");
    }
    assertThat(storage.read(inTheWay)).isEqualTo(other);
    assertThat(InvariantChecker.snapshot(storage, meta).keySet()).isEqualTo(before);
  }

  /**
   * {@code archive.history.max-age} deletes the oldest archive files whose newest instant is old
   * enough, stops at the first younger one, and never deletes the newest file.
   */
  public static void historyMaxAgePurgesOldArchiveFiles(MetaStorage store, StorageLocation base)
      throws Exception {
    // one new archive file per run, as on object stores
    MetaStorage storage = new io.timelinearchive.storage.WithoutAppendMetaStorage(store);
    SampleTable.write(storage, base, table());
    StorageLocation archiveFolder = base.resolve(".hoodie").resolve("archived");
    MutableClock clock = new MutableClock(java.time.Instant.parse("2026-11-29T12:00:00Z"));
    Map<String, String> capped = new HashMap<>(TestTables.SMALL_RETENTION);
    capped.put("archive.max-instants-per-run", "6");
    for (int run = 0; run < 3; run++) {
      try (TimelineArchiver archiver =
          TimelineArchiver.create(storage, base, capped, clock, ArchiveListener.NONE)) {
        assertThat(archiver.archiveIfRequired().archiveFilesWritten()).hasSize(1);
      }
    }
    List<io.timelinearchive.storage.FileEntry> files =
        ArchiveFolder.list(storage, archiveFolder).archiveFiles();
    assertThat(files).hasSize(3);
    String newestOfFirst =
        ArchivedTimeline.readFile(storage, files.get(0), 0).instants().stream()
            .map(a -> a.instant().time())
            .max(String::compareTo)
            .orElseThrow();
    String oldestOfSecond =
        ArchivedTimeline.readFile(storage, files.get(1), 0).instants().stream()
            .map(a -> a.instant().time())
            .min(String::compareTo)
            .orElseThrow();
    assertThat(newestOfFirst).isLessThan(oldestOfSecond);

    // the first file's newest instant is a day and a second old; the second's are younger
    Map<String, String> purging = new HashMap<>(TestTables.SMALL_RETENTION);
    purging.put("archive.history.max-age", "1d");
    purging.put("hoodie.keep.max.commits", "100");
    purging.put("hoodie.keep.min.commits", "99");
    clock = new MutableClock(whenAged(newestOfFirst, Duration.ofDays(1).plusSeconds(1)));
    ArchiveResult result;
    try (TimelineArchiver archiver =
        TimelineArchiver.create(storage, base, purging, clock, ArchiveListener.NONE)) {
      assertThat(archiver.rules())
          .contains(
              "archive history max-age 1d: archive files whose newest instant is older are"
                  + " deleted (never the newest file)");
      result = archiver.archiveIfRequired();
    }
    assertThat(result.archived()).isEmpty();
    assertThat(result.archiveFilesPurged()).containsExactly(files.get(0).name());
    assertThat(ArchiveFolder.list(storage, archiveFolder).archiveFiles())
        .extracting(io.timelinearchive.storage.FileEntry::name)
        .containsExactly(files.get(1).name(), files.get(2).name());

    // far in the future everything is old, but the newest file stays
    clock = new MutableClock(java.time.Instant.parse("2100-01-01T00:00:00Z"));
    try (TimelineArchiver archiver =
        TimelineArchiver.create(storage, base, purging, clock, ArchiveListener.NONE)) {
      result = archiver.archiveIfRequired();
    }
    assertThat(result.archiveFilesPurged()).containsExactly(files.get(1).name());
    assertThat(ArchiveFolder.list(storage, archiveFolder).archiveFiles())
        .extracting(io.timelinearchive.storage.FileEntry::name)
        .containsExactly(files.get(2).name());
    assertThat(
            ArchivedTimeline.load(storage, archiveFolder, ArchiveReadOptions.metadataOnly())
                .instants())
        .isNotEmpty();
  }
}
