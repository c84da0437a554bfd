package io.timelinearchive.hudicompat;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.format.InstantConversionException;
import io.timelinearchive.hudicompat.HudiView.Id;
import io.timelinearchive.select.ArchivalPlan;
import io.timelinearchive.select.Barrier;
import io.timelinearchive.timeline.InstantFileName;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.exception.HoodieCommitException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue test 3: on two copies of one table, with equal settings, our plan names exactly the instant
 * files Hudi 0.15's own archiver removes from the first copy, and our archiver removes the same
 * from the second. Each case names the rule that stops selection, so that every rule is seen to
 * agree with Hudi on a real table.
 */
class TestSameSelectionAsHudi {
  @RegisterExtension static final HudiFixtures FIXTURES = new HudiFixtures();

  @TempDir Path tmp;

  @Test
  void copyOnWriteStopsAtTheSavepointAndTrimsCleansAndRollbacks() throws Exception {
    Outcome outcome = compare(HoodieTableType.COPY_ON_WRITE, HudiTable.archivalSettings(), t -> {});

    assertThat(outcome.plan().barrier().kind()).as("%s", outcome).isEqualTo(Barrier.Kind.SAVEPOINT);
    assertThat(outcome.plan().barrier(Barrier.Scope.CLEAN).kind())
        .isEqualTo(Barrier.Kind.MIN_COMMITS);
    assertThat(outcome.plan().barrier(Barrier.Scope.ROLLBACK).kind())
        .isEqualTo(Barrier.Kind.MIN_COMMITS);
    assertThat(outcome.removedActions()).contains("commit", "clean", "rollback");
  }

  @Test
  void mergeOnReadStopsAtTheSavepoint() throws Exception {
    Outcome outcome = compare(HoodieTableType.MERGE_ON_READ, HudiTable.archivalSettings(), t -> {});

    assertThat(outcome.plan().barrier().kind()).as("%s", outcome).isEqualTo(Barrier.Kind.SAVEPOINT);
    // completed compactions are commits; their plans go with them
    assertThat(outcome.removedActions()).contains("deltacommit", "commit", "compaction");
  }

  @Test
  void withoutTheSavepointMinCommitsAreKept() throws Exception {
    Outcome outcome =
        compare(
            HoodieTableType.COPY_ON_WRITE,
            HudiTable.archivalSettings(),
            t -> t.deleteSavepoint(FIXTURES.written(HoodieTableType.COPY_ON_WRITE).savepoint()));

    assertThat(outcome.plan().barrier().kind())
        .as("%s", outcome)
        .isEqualTo(Barrier.Kind.MIN_COMMITS);
    assertThat(outcome.plan().minCommits()).isEqualTo(4);
  }

  @Test
  void archivingBeyondTheSavepointSkipsOnlyTheSavepointedCommit() throws Exception {
    Map<String, String> settings = HudiTable.archivalSettings();
    settings.put("hoodie.archive.beyond.savepoint", "true");
    // keep few enough that commits after the savepoint are archived too
    settings.put("hoodie.keep.min.commits", "2");
    settings.put("hoodie.keep.max.commits", "3");
    settings.put("hoodie.cleaner.commits.retained", "1");
    Outcome outcome = compare(HoodieTableType.COPY_ON_WRITE, settings, t -> {});

    String savepoint = FIXTURES.written(HoodieTableType.COPY_ON_WRITE).savepoint();
    assertThat(outcome.plan().barrier().kind())
        .as("%s", outcome)
        .isEqualTo(Barrier.Kind.MIN_COMMITS);
    assertThat(outcome.removed()).doesNotContain(savepoint + ".commit");
    assertThat(outcome.removed().stream().filter(f -> f.endsWith(".commit")))
        .anyMatch(f -> f.compareTo(savepoint) > 0);
  }

  @Test
  void aCleanerRetainingMoreCommitsWidensMinAndMax() throws Exception {
    Map<String, String> settings = HudiTable.archivalSettings();
    settings.put("hoodie.keep.min.commits", "2");
    settings.put("hoodie.keep.max.commits", "3");
    settings.put("hoodie.cleaner.commits.retained", "3");
    Outcome outcome =
        compare(
            HoodieTableType.COPY_ON_WRITE,
            settings,
            t -> t.deleteSavepoint(FIXTURES.written(HoodieTableType.COPY_ON_WRITE).savepoint()));

    // the cleaner's earliest commit to retain is the 3rd newest: it and the two after it, plus 2
    assertThat(outcome.plan().minCommits()).isEqualTo(4);
    assertThat(outcome.plan().maxCommits()).isEqualTo(5);
    assertThat(outcome.plan().barrier().kind())
        .as("%s", outcome)
        .isEqualTo(Barrier.Kind.MIN_COMMITS);
  }

  @Test
  void mergeOnReadKeepsTheDeltaCommitsTheNextCompactionNeeds() throws Exception {
    Map<String, String> settings = HudiTable.archivalSettings();
    settings.put("hoodie.keep.min.commits", "1");
    settings.put("hoodie.keep.max.commits", "2");
    // no widening: this cleaner policy names no earliest commit to retain
    settings.put("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS");
    Outcome outcome =
        compare(
            HoodieTableType.MERGE_ON_READ,
            settings,
            t -> t.deleteSavepoint(FIXTURES.written(HoodieTableType.MERGE_ON_READ).savepoint()));

    assertThat(outcome.plan().barrier().kind())
        .as("%s", outcome)
        .isEqualTo(Barrier.Kind.COMPACTION_RETENTION);
  }

  @Test
  void aPendingCommitStopsCommits() throws Exception {
    Map<String, String> settings = HudiTable.archivalSettings();
    // a failed write stays pending instead of being rolled back by the next commit
    settings.put("hoodie.cleaner.policy.failed.writes", "LAZY");
    // With KEEP_LATEST_COMMITS the cleaner retains from the last commit before a pending one, and
    // the widened min keeps one commit more than the pending rule: the barrier would read
    // MIN_COMMITS (Hudi agrees, as this suite checks with that policy elsewhere).
    settings.put("hoodie.cleaner.policy", "KEEP_LATEST_FILE_VERSIONS");
    Outcome outcome =
        compare(
            HoodieTableType.COPY_ON_WRITE,
            settings,
            t -> {
              t.deleteSavepoint(FIXTURES.written(HoodieTableType.COPY_ON_WRITE).savepoint());
              t.failedWrite();
              t.closeClient();
              for (int i = 0; i < 5; i++) {
                t.commit();
              }
            });

    assertThat(outcome.plan().barrier().kind())
        .as("%s", outcome)
        .isEqualTo(Barrier.Kind.PENDING_INSTANT);
  }

  @Test
  void aPendingCompactionStopsCommits() throws Exception {
    Map<String, String> settings = HudiTable.archivalSettings();
    settings.put("hoodie.compact.inline", "false");
    Outcome outcome =
        compare(
            HoodieTableType.MERGE_ON_READ,
            settings,
            t -> {
              t.deleteSavepoint(FIXTURES.written(HoodieTableType.MERGE_ON_READ).savepoint());
              // enough delta commits since the last compaction for Hudi to plan one
              t.commit();
              t.commit();
              t.scheduleCompaction();
              for (int i = 0; i < 5; i++) {
                t.commit();
              }
            });

    assertThat(outcome.plan().barrier().kind())
        .as("%s", outcome)
        .isEqualTo(Barrier.Kind.PENDING_INSTANT);
  }

  @Test
  void replaceCommitsAreArchivedOnceTheCleanerHasPassedThem() throws Exception {
    Map<String, String> settings = clustering(HudiTable.archivalSettings());
    Outcome outcome =
        compare(
            HoodieTableType.COPY_ON_WRITE,
            settings,
            t -> {
              t.deleteSavepoint(FIXTURES.written(HoodieTableType.COPY_ON_WRITE).savepoint());
              for (int i = 0; i < 6; i++) {
                t.commit();
              }
            });

    assertThat(outcome.plan().barrier().kind())
        .as("%s", outcome)
        .isEqualTo(Barrier.Kind.MIN_COMMITS);
    assertThat(outcome.removedActions()).as("%s", outcome).contains("replacecommit");
  }

  @Test
  void replaceCommitsStayUntilTheCleanerHasPassedThem() throws Exception {
    Map<String, String> settings = clustering(HudiTable.archivalSettings());
    Outcome outcome =
        compare(
            HoodieTableType.COPY_ON_WRITE,
            settings,
            t -> {
              t.deleteSavepoint(FIXTURES.written(HoodieTableType.COPY_ON_WRITE).savepoint());
              for (int i = 0; i < 4; i++) {
                t.commit();
              }
              t.closeClient();
              // No clean after these: the latest clean's plan still retains from before them, so
              // the replacecommits they bring stay, more of them than min commits keeps.
              Map<String, String> noClean = new LinkedHashMap<>(settings);
              noClean.put("hoodie.clean.automatic", "false");
              try (HudiTable writer =
                  HudiTable.open(
                      t.basePath(),
                      t.type(),
                      noClean,
                      new org.apache.hadoop.conf.Configuration())) {
                for (int i = 0; i < 4; i++) {
                  writer.commit();
                }
              }
            });

    assertThat(outcome.plan().barrier().kind())
        .as("%s", outcome)
        .isEqualTo(Barrier.Kind.CLUSTERING_RETENTION);
  }

  /** Inline clustering every second commit, with the Java client's strategies. */
  private static Map<String, String> clustering(Map<String, String> settings) {
    settings.put("hoodie.clustering.inline", "true");
    settings.put("hoodie.clustering.inline.max.commits", "2");
    settings.put(
        "hoodie.clustering.plan.strategy.class",
        "org.apache.hudi.client.clustering.plan.strategy.JavaSizeBasedClusteringPlanStrategy");
    settings.put(
        "hoodie.clustering.execution.strategy.class",
        "org.apache.hudi.client.clustering.run.strategy.JavaSortAndSizeExecutionStrategy");
    return settings;
  }

  // ---- Where we differ from Hudi 0.15 on purpose: each difference stated, none skipped. ----

  /**
   * Difference 1: {@code archive.max-instants-per-run} (ours) takes the oldest part of Hudi's
   * choice.
   */
  @Test
  void aPerRunCapArchivesTheOldestPartOfWhatHudiArchives() throws Exception {
    Map<String, String> settings = HudiTable.archivalSettings();
    settings.put("archive.max-instants-per-run", "5");
    Runs runs = run(HoodieTableType.COPY_ON_WRITE, settings, t -> {}, dir -> {});

    assertThat(runs.plan().barrier().kind()).isEqualTo(Barrier.Kind.RUN_CAP);
    assertThat(runs.plan().instants()).hasSize(5);
    List<String> hudiKeys = keys(runs.removedByHudi());
    assertThat(hudiKeys).hasSizeGreaterThan(5);
    assertThat(keys(runs.removedByUs())).isEqualTo(hudiKeys.subList(0, 5));
  }

  /** Difference 2: {@code archive.retain.min-age} (ours) keeps instants younger than it. */
  @Test
  void aMinimumAgeKeepsYoungInstantsThatHudiArchives() throws Exception {
    Map<String, String> settings = HudiTable.archivalSettings();
    settings.put("archive.retain.min-age", "3650d");
    Runs runs = run(HoodieTableType.COPY_ON_WRITE, settings, t -> {}, dir -> {});

    assertThat(runs.plan().barrier().kind()).isEqualTo(Barrier.Kind.MIN_AGE);
    assertThat(runs.plan().isEmpty()).isTrue();
    assertThat(runs.removedByUs()).isEmpty();
    assertThat(runs.removedByHudi()).isNotEmpty();
  }

  /**
   * Difference 3: with {@code hoodie.fail.on.timeline.archiving=false}, Hudi 0.15 skips an instant
   * file it cannot convert but deletes it with the others, so it is lost: neither active nor
   * archived. We stop before it and keep it (archive protocol invariant 5).
   */
  @Test
  void anUnreadableInstantFileIsKeptWhereHudiLosesIt() throws Exception {
    Map<String, String> settings = HudiTable.archivalSettings();
    settings.put("hoodie.fail.on.timeline.archiving", "false");
    String[] damaged = new String[1];
    Runs runs =
        run(
            HoodieTableType.COPY_ON_WRITE,
            settings,
            t -> {},
            dir -> damaged[0] = damageOldestClean(dir));

    String file = damaged[0];
    assertThat(runs.hudiFailure()).isNull();
    assertThat(runs.removedByHudi()).as("Hudi deletes the file").contains(file);
    assertThat(runs.hudiArchived()).as("Hudi's archive lacks it").doesNotContain(id(file));

    assertThat(runs.ourFailure()).isNull();
    assertThat(runs.removedByUs()).as("we keep it").doesNotContain(file);
    String time = file.substring(0, file.indexOf('.'));
    assertThat(runs.removedByUs())
        .as("we archive only what is older")
        .isNotEmpty()
        .allMatch(f -> f.compareTo(time) < 0);
    assertThat(keys(runs.removedByHudi()))
        .startsWith(keys(runs.removedByUs()).toArray(String[]::new));
  }

  /** Not a difference: by default an unreadable file fails both runs before anything is deleted. */
  @Test
  void anUnreadableInstantFileFailsBothRunsBeforeAnyDeletion() throws Exception {
    Runs runs =
        run(
            HoodieTableType.COPY_ON_WRITE,
            HudiTable.archivalSettings(),
            t -> {},
            TestSameSelectionAsHudi::damageOldestClean);

    assertThat(runs.hudiFailure())
        .isInstanceOf(HoodieCommitException.class)
        .hasMessageContaining("Failed to archive commits");
    assertThat(runs.ourFailure()).isInstanceOf(InstantConversionException.class);
    assertThat(runs.removedByHudi()).isEmpty();
    assertThat(runs.removedByUs()).isEmpty();
  }

  /**
   * Difference 4: Hudi 0.5 to 0.13 copied compaction plans into {@code .hoodie/.aux/}; we remove
   * the copies of archived instants, Hudi 0.15 leaves them. Same choice of instants otherwise.
   */
  @Test
  void oldCompactionPlanCopiesInAuxAreRemovedByUsOnly() throws Exception {
    String[] copy = new String[1];
    Runs runs =
        run(
            HoodieTableType.MERGE_ON_READ,
            HudiTable.archivalSettings(),
            t -> {},
            dir -> copy[0] = copyOldestCompactionPlanToAux(dir));

    assertThat(runs.removedByUs()).isEqualTo(runs.removedByHudi()).contains(copy[0]);
    assertThat(tmp.resolve("hudi/.hoodie/.aux").resolve(copy[0])).as("Hudi leaves it").exists();
    assertThat(tmp.resolve("ours/.hoodie/.aux").resolve(copy[0])).as("we remove it").doesNotExist();
  }

  /**
   * Difference 5: Hudi's archiver deletes the marker folder ({@code .hoodie/.temp/<time>/}) a
   * crashed writer left for an instant it archives; we touch nothing outside the timeline and
   * {@code .aux/}, and leave markers to Hudi's writers. Same choice of instants otherwise.
   */
  @Test
  void leftOverMarkersOfArchivedInstantsAreRemovedByHudiOnly() throws Exception {
    String[] time = new String[1];
    Runs runs =
        run(
            HoodieTableType.COPY_ON_WRITE,
            HudiTable.archivalSettings(),
            t -> {},
            dir -> time[0] = leaveMarkersOfOldestCommit(dir));

    assertThat(runs.removedByUs()).isEqualTo(runs.removedByHudi()).contains(time[0] + ".commit");
    assertThat(tmp.resolve("hudi/.hoodie/.temp").resolve(time[0]))
        .as("Hudi deletes them")
        .doesNotExist();
    assertThat(tmp.resolve("ours/.hoodie/.temp").resolve(time[0])).as("we leave them").exists();
  }

  /**
   * What each archiver removed from its copy of one table, after our plan was made.
   *
   * @param hudiFailure what Hudi's archiver threw, if it did
   * @param ourFailure what ours threw, if it did
   * @param hudiArchived what Hudi's reader finds in Hudi's copy afterwards
   */
  record Runs(
      ArchivalPlan plan,
      Set<String> removedByHudi,
      Set<String> removedByUs,
      Exception hudiFailure,
      Exception ourFailure,
      Set<Id> hudiArchived) {}

  /**
   * What Hudi and we removed, when both removed the same.
   *
   * @param removed the instant files Hudi's archiver removed, which our plan names and our archiver
   *     removed too
   */
  record Outcome(ArchivalPlan plan, Set<String> removed) {
    @Override
    public String toString() {
      return "barriers " + plan.barriers() + ", removed " + removed;
    }

    Set<String> removedActions() {
      Set<String> actions = new TreeSet<>();
      for (String name : removed) {
        String[] parts = name.split("\\.");
        actions.add(parts[1].equals("inflight") ? "commit" : parts[1]);
      }
      return actions;
    }
  }

  interface Preparation {
    void prepare(HudiTable table) throws Exception;
  }

  interface Damage {
    void damage(Path table) throws Exception;
  }

  private Outcome compare(HoodieTableType type, Map<String, String> settings, Preparation prepare)
      throws Exception {
    Runs runs = run(type, settings, prepare, dir -> {});
    assertThat(runs.hudiFailure()).isNull();
    assertThat(runs.ourFailure()).isNull();
    Set<String> planned = new TreeSet<>();
    runs.plan().files().stream().map(TimelineInstant::fileName).forEach(planned::add);

    assertThat(runs.removedByHudi()).as("Hudi archived something").isNotEmpty();
    assertThat(planned).as("our plan vs what Hudi removed").isEqualTo(runs.removedByHudi());
    assertThat(runs.removedByUs())
        .as("what we removed vs what Hudi removed")
        .isEqualTo(runs.removedByHudi());
    return new Outcome(runs.plan(), runs.removedByHudi());
  }

  /**
   * Copies the fixture, lets Hudi {@code prepare} it, copies that twice, {@code damage}s both
   * copies alike, plans with ours, then runs Hudi's archiver on one copy and ours on the other.
   */
  private Runs run(
      HoodieTableType type, Map<String, String> settings, Preparation prepare, Damage damage)
      throws Exception {
    Path hudiCopy = FIXTURES.copy(type, tmp.resolve("hudi"));
    try (HudiTable table = HudiTable.open(hudiCopy, type, settings)) {
      prepare.prepare(table);
    }
    Path ourCopy = tmp.resolve("ours");
    HudiFixtures.copyTree(hudiCopy, ourCopy);
    damage.damage(hudiCopy);
    damage.damage(ourCopy);
    String hudiUri = HudiTable.uri(hudiCopy);
    String ourUri = HudiTable.uri(ourCopy);
    Set<String> before = Ours.instantFiles(hudiUri, Map.of()).keySet();

    ArchivalPlan plan = Ours.plan(ourUri, settings);
    Exception hudiFailure = null;
    try (HudiTable table = HudiTable.open(hudiCopy, type, settings)) {
      assertThat(table.archiveWithHudi()).isTrue();
    } catch (Exception e) {
      hudiFailure = e;
    }
    Exception ourFailure = null;
    try {
      Ours.archive(ourUri, settings);
    } catch (Exception e) {
      ourFailure = e;
    }

    Set<String> removedByHudi = new TreeSet<>(before);
    removedByHudi.removeAll(Ours.instantFiles(hudiUri, Map.of()).keySet());
    Set<String> removedByUs = new TreeSet<>(before);
    removedByUs.removeAll(Ours.instantFiles(ourUri, Map.of()).keySet());
    Set<Id> hudiArchived;
    try (HudiTable table = HudiTable.open(hudiCopy, type, settings)) {
      hudiArchived = HudiView.ids(HudiView.archived(table.metaClient()));
    }
    return new Runs(plan, removedByHudi, removedByUs, hudiFailure, ourFailure, hudiArchived);
  }

  /**
   * Overwrites the oldest completed clean with bytes that are not Avro (keeping its length and
   * time, and dropping Hadoop's checksum of it), as a disk or a tool might; returns its name.
   */
  private static String damageOldestClean(Path table) throws IOException {
    Path meta = table.resolve(".hoodie");
    Path clean = oldest(meta, "\\d+\\.clean");
    FileTime modified = Files.getLastModifiedTime(clean);
    byte[] garbage = new byte[(int) Files.size(clean)];
    Arrays.fill(garbage, (byte) 'x');
    Files.write(clean, garbage);
    Files.setLastModifiedTime(clean, modified);
    Files.deleteIfExists(meta.resolve("." + clean.getFileName() + ".crc"));
    return clean.getFileName().toString();
  }

  /** Copies the oldest compaction plan into {@code .aux/}, as Hudi 0.13 did; returns its name. */
  private static String copyOldestCompactionPlanToAux(Path table) throws IOException {
    Path meta = table.resolve(".hoodie");
    Path plan = oldest(meta, "\\d+\\.compaction\\.requested");
    Files.createDirectories(meta.resolve(".aux"));
    Files.copy(plan, meta.resolve(".aux").resolve(plan.getFileName()));
    return plan.getFileName().toString();
  }

  /** Leaves a marker folder for the oldest commit, as a crashed writer would; returns its time. */
  private static String leaveMarkersOfOldestCommit(Path table) throws IOException {
    Path meta = table.resolve(".hoodie");
    String name = oldest(meta, "\\d+\\.commit").getFileName().toString();
    String time = name.substring(0, name.indexOf('.'));
    Path markers = Files.createDirectories(meta.resolve(".temp").resolve(time).resolve("p0"));
    Files.write(markers.resolve("f1_0-1-0_" + time + ".parquet.marker.MERGE"), new byte[0]);
    return time;
  }

  private static Path oldest(Path folder, String pattern) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files
          .filter(f -> f.getFileName().toString().matches(pattern))
          .sorted()
          .findFirst()
          .orElseThrow();
    }
  }

  /** The distinct (time, action) of instant file names, in time order. */
  private static List<String> keys(Set<String> fileNames) {
    Set<String> keys = new TreeSet<>();
    for (String name : fileNames) {
      Id id = id(name);
      keys.add(id.time() + "." + ("compaction".equals(id.action()) ? "commit" : id.action()));
    }
    return new ArrayList<>(keys);
  }

  private static Id id(String fileName) {
    if (!(InstantFileName.parse(fileName) instanceof InstantFileName.Result.Parsed parsed)) {
      throw new IllegalArgumentException("not an instant file: " + fileName);
    }
    return Id.of(parsed.instant());
  }
}
