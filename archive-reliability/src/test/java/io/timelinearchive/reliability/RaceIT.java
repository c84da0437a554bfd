package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.archive.InvariantChecker;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Eight CLI processes started together on one table: one archives, the others change nothing. A
 * holder paused past its lease gives up without deleting, and a successor finishes.
 */
class RaceIT {
  private static final int PROCESSES = 8;
  private static final int ROUNDS = Integer.getInteger("reliability.race-rounds", 1);
  private static final Pattern ARCHIVED = Pattern.compile("archived (\\d+) instant file\\(s\\)");
  private static final List<String> ARGS = List.of("--batch", "2");

  @TempDir static Path work;
  private static Path pristine;
  private static InvariantChecker checker;
  private static TreeSet<String> cleanActive;
  private static int cleanArchived;

  @BeforeAll
  static void tableAndUninterruptedRun() throws Exception {
    assertThat(Jar.JAR).as("the shaded jar (system property timeline-archive.jar)").isRegularFile();
    pristine = work.resolve("pristine");
    Tables.write(pristine, 5_000, 11);
    checker = new InvariantChecker(Tables.snapshot(pristine));
    Path clean = work.resolve("clean");
    Tables.link(pristine, clean);
    Jar.Run run = archive(clean).await();
    assertThat(run.exitCode()).as("uninterrupted run: %s", run.err()).isZero();
    cleanArchived = archived(run);
    assertThat(cleanArchived).isPositive();
    cleanActive = new TreeSet<>(Tables.snapshot(clean).keySet());
  }

  private static Jar.Started archive(Path table) throws Exception {
    List<String> args = new ArrayList<>(List.of("archive", table.toString()));
    args.addAll(ARGS);
    return Jar.start(work, args);
  }

  private static int archived(Jar.Run run) {
    Matcher m = ARCHIVED.matcher(run.out());
    assertThat(m.find()).as("a result in: %s", run.out()).isTrue();
    return Integer.parseInt(m.group(1));
  }

  @Test
  void oneOfEightProcessesArchivesAndTheOthersChangeNothing() throws Exception {
    for (int round = 1; round <= ROUNDS; round++) {
      Path table = work.resolve("round-" + round);
      Tables.link(pristine, table);
      List<Jar.Started> started = new ArrayList<>();
      for (int i = 0; i < PROCESSES; i++) {
        started.add(archive(table));
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
        int n = archived(run);
        if (n == 0) {
          idle++;
        } else {
          assertThat(n).as("what the one archiver archived").isEqualTo(cleanArchived);
          winners++;
        }
      }
      System.out.printf(
          "race round %d: %d archived, %d locked out (exit 4), %d found nothing to archive%n",
          round, winners, locked, idle);
      assertThat(winners).as("processes that archived").isEqualTo(1);
      assertThat(Tables.violations(checker, table)).isEmpty();
      assertThat(new TreeSet<>(Tables.snapshot(table).keySet())).isEqualTo(cleanActive);
      assertThat(Tables.files(table.resolve(".hoodie/archived")))
          .as("no lock or journal left behind")
          .noneMatch(n -> n.startsWith(".timeline_archive"));
    }
  }

  @ParameterizedTest(name = "paused before {0}")
  @FieldSource("io.timelinearchive.reliability.PausedHolder#PHASES")
  void aHolderPausedPastItsLeaseGivesUpAndASuccessorFinishes(String phase) throws Exception {
    System.out.println(
        PausedHolder.run(work, Store.local(work.resolve("paused")), Reference.small(), phase));
  }

  @ParameterizedTest(name = "killed before {0}")
  @FieldSource("io.timelinearchive.reliability.PausedHolder#PHASES")
  void aHolderKilledOnThisHostIsTakenOverAtOnce(String phase) throws Exception {
    System.out.println(
        PausedHolder.killed(work, Store.local(work.resolve("killed")), Reference.small(), phase));
  }
}
