package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.InvariantChecker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real crashes: the CLI archives a table of about 1,500 instants in a JVM of its own and is killed
 * with SIGKILL at a random moment of its run; the independent checker then looks at the table at
 * once (a reader may list it between the crash and the next run), and again after a re-run that
 * takes over the dead run's lock when its lease ends.
 */
class CrashIT {
  private static final int TRIALS = Integer.getInteger("reliability.trials", 10);
  private static final long SEED = Long.getLong("reliability.seed", 1);
  private static final Pattern PHASE = Pattern.compile("^\\[[0-9.]+s\\] ([a-z ]+)$");

  // Slow enough that a kill lands in every phase: small blocks (one force per block) and one read
  // at a time. The re-run takes the killed run's lock over at once (same host, process gone), so
  // the lease need not be waited out: a long one, which no fsync stalled by a busy disk outlives.
  private static final List<String> SLOW =
      List.of(
          "--batch",
          "1",
          "--conf",
          "archive.read.parallelism=1",
          "--conf",
          "archive.lock.lease=" + Leases.LONG);

  @TempDir static Path work;
  private static Path pristine;
  private static InvariantChecker checker;
  private static Map<String, byte[]> original;
  private static TreeSet<String> cleanActive;
  private static long cleanMillis;

  @BeforeAll
  static void tableAndUninterruptedRun() throws Exception {
    assertThat(Jar.JAR).as("the shaded jar (system property timeline-archive.jar)").isRegularFile();
    pristine = work.resolve("pristine");
    Tables.write(pristine, 3_400, 7);
    original = Tables.snapshot(pristine);
    assertThat(original.keySet().stream().map(n -> n.substring(0, n.indexOf('.'))).distinct())
        .as("instants in the table")
        .hasSizeGreaterThanOrEqualTo(1_000);
    checker = new InvariantChecker(original);

    Path clean = work.resolve("clean");
    Tables.link(pristine, clean);
    long start = System.nanoTime();
    // the default lease: this run only measures how long a run takes
    Jar.Run run =
        Jar.run(
            work,
            "archive",
            clean.toString(),
            "--batch",
            "1",
            "--conf",
            "archive.read.parallelism=1");
    cleanMillis = (System.nanoTime() - start) / 1_000_000;
    assertThat(run.exitCode()).as("uninterrupted run: %s", run.err()).isZero();
    assertThat(Tables.violations(checker, clean)).isEmpty();
    cleanActive = new TreeSet<>(Tables.snapshot(clean).keySet());
    assertThat(cleanActive.size()).isLessThan(original.size() / 10);
    System.out.printf("uninterrupted run: %d ms, %s%n", cleanMillis, run.out().strip());
  }

  private static Jar.Run archive(Path table) throws Exception {
    List<String> args = new ArrayList<>(List.of("archive", table.toString()));
    args.addAll(SLOW);
    return Jar.start(work, args).await();
  }

  @Test
  void sigkillAtRandomMomentsLosesNothing() throws Exception {
    Random random = new Random(SEED);
    List<String> failures = new ArrayList<>();
    Map<String, Integer> phases = new TreeMap<>();
    for (int trial = 1; trial <= TRIALS; trial++) {
      Path table = work.resolve("trial-" + trial);
      Tables.link(pristine, table);
      Moment moment = Moment.values()[random.nextInt(Moment.values().length)];
      long delay =
          switch (moment) {
            case ANY_TIME -> random.nextLong(cleanMillis + 1);
            // the pending files go in one quick batch: kill as soon as it is seen under way
            case PENDING_DELETED -> 0;
            default -> random.nextLong(300);
          };
      List<String> args = new ArrayList<>(List.of("archive", table.toString()));
      args.addAll(SLOW);
      Jar.Started started = Jar.start(work, args);
      boolean finished =
          !awaitMoment(started.process(), table, moment, random)
              || started.process().waitFor(delay, java.util.concurrent.TimeUnit.MILLISECONDS);
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

      List<String> afterKill = Tables.violations(checker, table);
      Jar.Run rerun = archive(table);
      List<String> afterRerun = Tables.violations(checker, table);
      TreeSet<String> active = new TreeSet<>(Tables.snapshot(table).keySet());
      System.out.printf(
          "trial %d: kill aimed at %s + %d ms, hit %s; violations after kill %d, after re-run %d;"
              + " re-run: %s%n",
          trial, moment, delay, phase, afterKill.size(), afterRerun.size(), rerun.out().strip());
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
                + "): active timeline differs from an uninterrupted run's: left active only here "
                + difference(active, cleanActive)
                + ", only there "
                + difference(cleanActive, active)
                + "; re-run said: "
                + rerun.out().strip()
                + " "
                + rerun.err().strip());
      }
      if (failures.isEmpty()) {
        Tables.delete(table);
      }
    }
    System.out.printf("%d trials; kills by phase: %s%n", TRIALS, phases);
    assertThat(failures).isEmpty();
  }

  /**
   * Where a kill is aimed: the run's progress is watched through the files it changes, so that a
   * busy machine, which stretches some phases and not others, does not skew where kills land.
   */
  enum Moment {
    /** a random time within an uninterrupted run's length: JVM start, lock, list, read, write */
    ANY_TIME,
    /** the run journal appeared: blocks are being appended */
    WRITING,
    /** a pending file the run archives is gone: the batched delete of pending files */
    PENDING_DELETED,
    /** a completed file the run archives, chosen at random, is gone: the oldest-first deletes */
    COMPLETED_DELETED
  }

  /**
   * Waits for the moment.
   *
   * @return false if the run ended first
   */
  private static boolean awaitMoment(Process process, Path table, Moment moment, Random random)
      throws InterruptedException {
    Path meta = table.resolve(".hoodie");
    List<String> archivedByCleanRun =
        original.keySet().stream().filter(n -> !cleanActive.contains(n)).sorted().toList();
    Path watched =
        switch (moment) {
          case ANY_TIME -> null;
          case WRITING -> meta.resolve("archived/.timeline_archive.journal");
          case PENDING_DELETED -> meta.resolve(pick(archivedByCleanRun, false, random));
          case COMPLETED_DELETED -> meta.resolve(pick(archivedByCleanRun, true, random));
        };
    if (watched == null) {
      return true;
    }
    boolean appears = moment == Moment.WRITING;
    while (process.isAlive()) {
      if (Files.exists(watched) == appears) {
        return true;
      }
      Thread.sleep(1);
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

  private static TreeSet<String> difference(TreeSet<String> a, TreeSet<String> b) {
    TreeSet<String> d = new TreeSet<>(a);
    d.removeAll(b);
    return d;
  }

  /**
   * The last phase the run reported (it reports only after its first second), and whether the run
   * journal and lock were left behind.
   */
  private static String phaseOf(String err, Path table) {
    String last = "starting (first second, no phase reported yet)";
    for (String line : err.lines().toList()) {
      Matcher m = PHASE.matcher(line.strip());
      if (m.matches()) {
        last = m.group(1);
      }
    }
    Path archived = table.resolve(".hoodie/archived");
    boolean journal = Files.exists(archived.resolve(".timeline_archive.journal"));
    int before = original.size();
    int deleted;
    boolean completedDeleted;
    try {
      Map<String, byte[]> active = Tables.snapshot(table);
      deleted = before - active.size();
      completedDeleted =
          original.keySet().stream()
              .anyMatch(
                  n ->
                      !n.contains(".requested")
                          && !n.contains(".inflight")
                          && !active.containsKey(n));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    // What the files left behind tell, finer than the reported phase around the write/delete steps
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
