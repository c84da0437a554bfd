package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sample table written once per JVM on local disk, and what an uninterrupted CLI run leaves of it
 * there. Selection does not depend on the store, so runs on every server compare against it.
 *
 * @param original every instant file, by name
 * @param cleanActive the instant files an uninterrupted run leaves active
 * @param archived how many instant files that run archived
 * @param millis how long that run took
 * @param options the CLI's options of that run, which any run that must end as it did is given
 */
record Reference(
    Path pristine,
    Map<String, byte[]> original,
    TreeSet<String> cleanActive,
    int archived,
    long millis,
    List<String> options) {
  private static final Pattern ARCHIVED = Pattern.compile("archived (\\d+) instant file\\(s\\)");
  private static Reference crash;
  private static Reference small;
  private static Reference faults;

  /** The settings {@link #faults()} was archived with, for in-process runs to match it. */
  static final Map<String, String> FAULTS_CONFIG =
      Map.of(
          "hoodie.commits.archival.batch", "2",
          "hoodie.keep.min.commits", "4",
          "hoodie.keep.max.commits", "6");

  /** About 3,400 instant files, over 1,000 instants, archived one instant per block. */
  static synchronized Reference crash() throws Exception {
    if (crash == null) {
      crash = of(3_400, 7, List.of("--batch", "1"));
      assertThat(crash.instants()).as("instants in the table").isGreaterThanOrEqualTo(1_000);
    }
    return crash;
  }

  /** About 1,000 instant files, for races and store faults. */
  static synchronized Reference small() throws Exception {
    if (small == null) {
      small = of(1_000, 11, List.of("--batch", "2"));
    }
    return small;
  }

  /**
   * About 400 instant files, archived down to a few commits ({@link #FAULTS_CONFIG}): a table small
   * enough for many runs per store in the short form, in process and through the CLI, yet one whose
   * run archives about 100 instants in blocks of two, with as many deletes.
   */
  static synchronized Reference faults() throws Exception {
    if (faults == null) {
      faults = of(400, 13, List.of("--batch", "2", "--min", "4", "--max", "6"));
    }
    return faults;
  }

  long instants() {
    return original.keySet().stream().map(n -> n.substring(0, n.indexOf('.'))).distinct().count();
  }

  static int archived(Jar.Run run) {
    Matcher m = ARCHIVED.matcher(run.out());
    assertThat(m.find()).as("a result in: %s", run.out()).isTrue();
    return Integer.parseInt(m.group(1));
  }

  private static Reference of(int files, long seed, List<String> options) throws Exception {
    assertThat(Jar.JAR).as("the shaded jar (system property timeline-archive.jar)").isRegularFile();
    Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "reference-");
    Path pristine = dir.resolve("pristine");
    Tables.write(pristine, files, seed);
    Map<String, byte[]> original = Tables.snapshot(pristine);
    Path clean = dir.resolve("clean");
    Tables.link(pristine, clean);
    List<String> args = new java.util.ArrayList<>(List.of("archive", clean.toString()));
    args.addAll(options);
    long start = System.nanoTime();
    Jar.Run run = Jar.start(dir, args).await();
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(run.exitCode()).as("uninterrupted run: %s", run.err()).isZero();
    assertThat(Tables.violations(new io.timelinearchive.archive.InvariantChecker(original), clean))
        .isEmpty();
    TreeSet<String> cleanActive = new TreeSet<>(Tables.snapshot(clean).keySet());
    assertThat(cleanActive.size()).isLessThan(original.size() / 4);
    return new Reference(pristine, original, cleanActive, archived(run), millis, options);
  }
}
