package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@link CrashIT}'s and {@link RaceIT}'s runs on a server.
 *
 * <p>Crash trials: the CLI, in a JVM of its own, archives a table of about 1,000 instants on the
 * server and is killed with SIGKILL at a random moment; the independent checker reads the server at
 * once, and again after a re-run. Each trial gets a fresh copy of the table on the server. {@code
 * -Dreliability.server-trials=N} sets the number of trials per server.
 *
 * <p>Races: 8 archivers start together on one table on the server; exactly one archives, the others
 * report the lock or, started after it finished, find nothing to archive, and the table ends as
 * after one uninterrupted run. Every build races 8 threads of the test JVM (cheap; {@link RaceIT}
 * races processes on local disk); {@code -Dreliability.server-race-rounds=N} adds N rounds of 8 CLI
 * processes per server (the long form: 8 JVMs at once are slow on a small machine).
 *
 * <p>Paused holder: see {@link PausedHolder}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractStoreIT {
  private static final int TRIALS = Integer.getInteger("reliability.server-trials", 1);
  private static final int ROUNDS = Integer.getInteger("reliability.server-race-rounds", 0);
  private static final int PROCESSES = 8;
  private static final long SEED = Long.getLong("reliability.seed", 1);
  private static final Pattern PHASE = Pattern.compile("^\\[[0-9.]+s\\] ([a-z ]+)$");
  // the progress of the run is watched through the server, which costs it a request each time
  private static final long POLL_MILLIS = 5;

  // Small blocks (a block per instant), so that writing takes a while. The next run on this host
  // takes a killed run's lock over at once, so the lease need not be waited out: a long one, which
  // no slow upload of the whole archive file (15-25 s on a very busy machine) comes near.
  private static final List<String> SLOW =
      List.of("--batch", "1", "--conf", "archive.lock.lease=" + Leases.LONG);

  private Path work;
  private Store store;
  private Path pristine;
  private InvariantChecker checker;
  private Map<String, byte[]> original;
  private TreeSet<String> cleanActive;
  // how long a whole run takes on this store: the longest re-run so far, at first the reference
  // run's on local disk (shorter than on any server, so the first kill at any time lands in a run)
  private long runMillis;

  abstract Store store();

  /** The store for crash trial {@code trial} (from 1); {@code current} by default. */
  Store storeForTrial(int trial, Store current) throws Exception {
    return current;
  }

  /**
   * Whether a violation after the re-run of a run killed in {@code phase} is a known, reported bug
   * of the product on this store (an expected failure, counted and printed on every trial that hits
   * it); none by default.
   */
  boolean knownBug(String violation, String phase) {
    return false;
  }

  @BeforeAll
  void tableAndStore() throws Exception {
    assertThat(Jar.JAR).as("the shaded jar (system property timeline-archive.jar)").isRegularFile();
    work =
        java.nio.file.Files.createTempDirectory(
            Path.of("target").toAbsolutePath(), getClass().getSimpleName() + "-");
    // The long form's trials need the table of over 1,000 instants, so that kills spread over
    // long phases; the short form's one trial per server checks the same on the small table in a
    // third of the time (on Azurite, 900 single deletes of completed instants cost over a minute).
    Reference r = TRIALS > 1 ? Reference.crash() : Reference.small();
    pristine = r.pristine();
    original = r.original();
    cleanActive = r.cleanActive();
    runMillis = r.millis();
    checker = new InvariantChecker(original);
    store = store();
  }

  @AfterAll
  void deleteWork() throws Exception {
    if (work != null) {
      Tables.delete(work);
    }
  }

  private List<String> args(StorageLocation table) {
    List<String> args = new ArrayList<>(List.of("archive", table.toString()));
    args.addAll(SLOW);
    args.addAll(store.conf());
    return args;
  }

  private Jar.Run archive(StorageLocation table) throws Exception {
    return Jar.start(work, args(table)).await();
  }

  @Test
  void sigkillAtRandomMomentsLosesNothing() throws Exception {
    // each store its own sequence of moments, replayable from the seed
    // (mixed: java.util.Random's first values follow nearby seeds closely)
    Random random =
        new Random(new java.util.SplittableRandom(SEED + store.name().hashCode()).nextLong());
    List<String> failures = new ArrayList<>();
    Map<String, Integer> phases = new TreeMap<>();
    Map<String, Integer> knownBugs = new TreeMap<>();
    int checked = 0;
    long started0 = System.nanoTime();
    for (int trial = 1; trial <= TRIALS; trial++) {
      store = storeForTrial(trial, store);
      StorageLocation table = store.newRoot("trial-" + trial);
      StoreTables.upload(pristine, store, table);
      CrashIT.Moment moment =
          CrashIT.Moment.values()[random.nextInt(CrashIT.Moment.values().length)];
      long delay =
          switch (moment) {
            case ANY_TIME -> random.nextLong(runMillis + 1);
            case PENDING_DELETED -> 0;
            default -> random.nextLong(300);
          };
      Jar.Started started = Jar.start(work, args(table));
      boolean finished =
          !awaitMoment(started.process(), table, moment, random)
              || started.process().waitFor(delay, TimeUnit.MILLISECONDS);
      String phase;
      if (finished) {
        Jar.Run run = started.await();
        phase = "finished before the kill (exit " + run.exitCode() + ")";
        if (run.exitCode() != 0) {
          failures.add("trial " + trial + " uninterrupted run failed: " + run.err());
        }
      } else {
        started.kill();
        phase = phaseOf(started.errSoFar(), table);
      }
      phases.merge(phase.replaceAll(" \\(.*", ""), 1, Integer::sum);

      List<String> afterKill = StoreTables.violations(checker, store, table);
      long rerunStart = System.nanoTime();
      Jar.Run rerun = archive(table);
      runMillis = Math.max(runMillis, (System.nanoTime() - rerunStart) / 1_000_000);
      List<String> afterRerun = new ArrayList<>(StoreTables.violations(checker, store, table));
      String killedIn = phase;
      List<String> known = afterRerun.stream().filter(v -> knownBug(v, killedIn)).toList();
      if (!known.isEmpty()) {
        afterRerun.removeAll(known);
        knownBugs.merge(phase.replaceAll(" \\(.*", ""), 1, Integer::sum);
        System.out.printf("%s trial %d: KNOWN BUG %s%n", store, trial, known);
      }
      TreeSet<String> active = new TreeSet<>(StoreTables.snapshot(store, table).keySet());
      checked += 2;
      System.out.printf(
          "%s trial %d: kill aimed at %s + %d ms, hit %s; violations after kill %d, after re-run"
              + " %d; re-run: %s%n",
          store,
          trial,
          moment,
          delay,
          phase,
          afterKill.size(),
          afterRerun.size(),
          rerun.out().strip());
      int before = failures.size();
      if (!afterKill.isEmpty()) {
        failures.add("trial " + trial + " (" + phase + ") after kill: " + afterKill);
      }
      if (rerun.exitCode() != 0) {
        failures.add("trial " + trial + " re-run exit " + rerun.exitCode() + ": " + rerun.err());
      }
      if (!afterRerun.isEmpty()) {
        failures.add("trial " + trial + " (" + phase + ") after re-run: " + afterRerun);
      }
      if (!active.equals(cleanActive)) {
        failures.add(
            "trial "
                + trial
                + " ("
                + phase
                + "): active timeline differs from an uninterrupted run's: "
                + active.size()
                + " files instead of "
                + cleanActive.size()
                + "; re-run said: "
                + rerun.out().strip()
                + " "
                + rerun.err().strip());
      }
      TreeSet<String> leftovers = StoreTables.archiveFolder(store, table);
      leftovers.removeIf(n -> !n.startsWith(".timeline_archive"));
      if (!leftovers.isEmpty()) {
        failures.add("trial " + trial + ": lock or journal left behind: " + leftovers);
      }
      if (failures.size() == before) {
        System.out.printf("%s trial %d: ok%n", store, trial);
        StoreTables.clear(store, table);
      } else {
        System.out.printf(
            "%s trial %d: FAILED %s%n", store, trial, failures.subList(before, failures.size()));
      }
    }
    System.out.printf(
        "%s: %d trials in %d s, %d checks; kills by phase: %s; failures: %d; known bug hit,"
            + " by phase: %s%n",
        store,
        TRIALS,
        (System.nanoTime() - started0) / 1_000_000_000,
        checked,
        phases,
        failures.size(),
        knownBugs);
    assertThat(failures).isEmpty();
  }

  @Test
  void oneOfEightThreadsArchivesAndTheOthersChangeNothing() throws Exception {
    Reference r = Reference.small();
    StorageLocation table = store.newRoot("race-threads");
    StoreTables.upload(r.pristine(), store, table);
    Map<String, String> config = new java.util.HashMap<>(store.config());
    config.put("hoodie.commits.archival.batch", "2");
    java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.ExecutorService threads =
        java.util.concurrent.Executors.newFixedThreadPool(PROCESSES);
    List<java.util.concurrent.Future<Integer>> results = new ArrayList<>();
    try {
      for (int i = 0; i < PROCESSES; i++) {
        results.add(
            threads.submit(
                () -> {
                  try (io.timelinearchive.archive.TimelineArchiver archiver =
                      io.timelinearchive.archive.TimelineArchiver.open(table.toString(), config)) {
                    start.await();
                    return archiver.archiveIfRequired().archived().size();
                  } catch (io.timelinearchive.archive.folder.ArchiveLockedException e) {
                    return -1;
                  }
                }));
      }
      start.countDown();
      int winners = 0;
      int locked = 0;
      int idle = 0;
      for (java.util.concurrent.Future<Integer> result : results) {
        int n = result.get(15, TimeUnit.MINUTES);
        if (n < 0) {
          locked++;
        } else if (n == 0) {
          idle++;
        } else {
          assertThat(n).as("what the one archiver archived").isEqualTo(r.archived());
          winners++;
        }
      }
      System.out.printf(
          "%s race of threads: %d archived, %d locked out, %d found nothing to archive%n",
          store, winners, locked, idle);
      assertThat(winners).as("threads that archived").isEqualTo(1);
    } finally {
      threads.shutdownNow();
    }
    assertThat(StoreTables.violations(new InvariantChecker(r.original()), store, table)).isEmpty();
    assertThat(new TreeSet<>(StoreTables.snapshot(store, table).keySet()))
        .isEqualTo(r.cleanActive());
    assertThat(StoreTables.archiveFolder(store, table))
        .as("no lock or journal left behind")
        .noneMatch(n -> n.startsWith(".timeline_archive"));
    StoreTables.clear(store, table);
  }

  @Test
  void oneOfEightProcessesArchivesAndTheOthersChangeNothing() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        ROUNDS > 0,
        "racing CLI processes on servers is the long form's: -Dreliability.server-race-rounds=N");
    Reference r = Reference.small();
    InvariantChecker raceChecker = new InvariantChecker(r.original());
    for (int round = 1; round <= ROUNDS; round++) {
      StorageLocation table = store.newRoot("race-" + round);
      StoreTables.upload(r.pristine(), store, table);
      List<String> args = new ArrayList<>(List.of("archive", table.toString(), "--batch", "2"));
      args.addAll(store.conf());
      List<Jar.Started> started = new ArrayList<>();
      for (int i = 0; i < PROCESSES; i++) {
        started.add(Jar.start(work, args));
      }
      int winners = 0;
      int locked = 0;
      int idle = 0;
      for (Jar.Started s : started) {
        Jar.Run run = s.await();
        if (run.exitCode() == 4) {
          assertThat(run.err()).contains("is locked by").doesNotContain("\tat ");
          locked++;
          continue;
        }
        assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isZero();
        int n = Reference.archived(run);
        if (n == 0) {
          idle++;
        } else {
          assertThat(n).as("what the one archiver archived").isEqualTo(r.archived());
          winners++;
        }
      }
      System.out.printf(
          "%s race round %d: %d archived, %d locked out (exit 4), %d found nothing to archive%n",
          store, round, winners, locked, idle);
      assertThat(winners).as("processes that archived").isEqualTo(1);
      assertThat(StoreTables.violations(raceChecker, store, table)).isEmpty();
      assertThat(new TreeSet<>(StoreTables.snapshot(store, table).keySet()))
          .isEqualTo(r.cleanActive());
      assertThat(StoreTables.archiveFolder(store, table))
          .as("no lock or journal left behind")
          .noneMatch(n -> n.startsWith(".timeline_archive"));
      StoreTables.clear(store, table);
    }
  }

  /**
   * A holder paused before its deletes past its lease; the long form (server race rounds) also
   * pauses it before writing and between the pending and the completed deletes. On the table the
   * store faults use: a pause is a pause whatever the table's size, and the lease waited out is
   * five whole runs of it.
   */
  @Test
  void aHolderPausedPastItsLeaseGivesUpAndASuccessorFinishes() throws Exception {
    for (String phase : ROUNDS > 0 ? PausedHolder.PHASES : List.of("DELETE_PENDING")) {
      System.out.println(PausedHolder.run(work, store, Reference.faults(), phase));
    }
  }

  /**
   * Waits for the moment, watching the server.
   *
   * @return false if the run ended first
   */
  private boolean awaitMoment(
      Process process, StorageLocation table, CrashIT.Moment moment, Random random)
      throws Exception {
    StorageLocation meta = table.resolve(".hoodie");
    List<String> archivedByCleanRun =
        original.keySet().stream().filter(n -> !cleanActive.contains(n)).sorted().toList();
    StorageLocation watched =
        switch (moment) {
          case ANY_TIME -> null;
          case WRITING -> meta.resolve("archived/.timeline_archive.journal");
          case PENDING_DELETED -> meta.resolve(pick(archivedByCleanRun, false, random));
          case COMPLETED_DELETED -> meta.resolve(pick(archivedByCleanRun, true, random));
        };
    if (watched == null) {
      return true;
    }
    boolean appears = moment == CrashIT.Moment.WRITING;
    try (MetaStorage storage = store.open(table)) {
      while (process.isAlive()) {
        if (StoreTables.exists(storage, watched) == appears) {
          return true;
        }
        Thread.sleep(POLL_MILLIS);
      }
    }
    return false;
  }

  private static String pick(List<String> names, boolean completed, Random random) {
    List<String> matching =
        names.stream()
            .filter(n -> completed != (n.endsWith(".requested") || n.endsWith(".inflight")))
            .toList();
    return matching.get(random.nextInt(matching.size()));
  }

  /** The last phase the run reported, and what the files left on the server tell. */
  private String phaseOf(String err, StorageLocation table) throws Exception {
    String last = "starting (first second, no phase reported yet)";
    for (String line : err.lines().toList()) {
      Matcher m = PHASE.matcher(line.strip());
      if (m.matches()) {
        last = m.group(1);
      }
    }
    boolean journal = StoreTables.archiveFolder(store, table).contains(".timeline_archive.journal");
    Map<String, byte[]> active = StoreTables.snapshot(store, table);
    int deleted = original.size() - active.size();
    boolean completedDeleted =
        original.keySet().stream()
            .anyMatch(
                n ->
                    !n.contains(".requested")
                        && !n.contains(".inflight")
                        && !active.containsKey(n));
    String byFiles;
    if (!journal && deleted == 0) {
      byFiles = "before the journal";
    } else if (journal && deleted == 0) {
      byFiles = "write";
    } else if (journal && !completedDeleted) {
      byFiles = "delete pending";
    } else if (journal) {
      byFiles = "delete completed";
    } else {
      byFiles = "after deletes";
    }
    return byFiles + " (reported phase: " + last + "; " + deleted + " files deleted)";
  }
}
