package io.timelinearchive.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the shaded jar as a user does, in a JVM of its own: what {@code package} built must hold
 * every class and service registration the commands need.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TimelineArchiveJarIT {
  private static final Path JAR = Path.of(System.getProperty("timeline-archive.jar", "missing"));
  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

  @TempDir static Path work;
  private static Path demo;

  record Run(int exitCode, String out, String err) {
    JsonNode json() {
      return Cli.parse(out);
    }
  }

  static Run jar(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(JAVA.toString(), "-jar", JAR.toString()));
    command.addAll(List.of(args));
    return run(command);
  }

  private static Run run(List<String> command) throws IOException, InterruptedException {
    return run(command, Map.of());
  }

  private static Run run(List<String> command, Map<String, String> environment)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().remove("JAVA_OPTS");
    builder.environment().putAll(environment);
    Process process =
        builder
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .start();
    if (!process.waitFor(3, TimeUnit.MINUTES)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError("timed out: " + command);
    }
    return new Run(process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
  }

  @BeforeAll
  static void jarExists() {
    assertThat(JAR).as("the shaded jar (system property timeline-archive.jar)").isRegularFile();
    demo = work.resolve("demo");
  }

  @Test
  @Order(1)
  void demoWritesArchivesAndChecksASampleTable() throws Exception {
    Run run = jar("demo", demo.toString());

    assertThat(run.exitCode()).as("stderr: %s", run.err()).isZero();
    assertThat(run.out())
        .contains("sample table: " + demo.toAbsolutePath())
        .contains("selection stopped: first savepoint at ")
        .contains("  check: every instant file written is in the active timeline or the archive");
    // slf4j-simple's provider registration survived the shading: no "no providers" warning
    assertThat(run.err()).doesNotContain("SLF4J");
  }

  @Test
  @Order(2)
  void theCommandsReadAndArchiveTheDemoTable() throws Exception {
    Run archived = jar("show", "archived", demo.toString(), "--json");
    assertThat(archived.exitCode()).as("stderr: %s", archived.err()).isZero();
    int count = archived.json().get("instantFilesMatched").asInt();
    assertThat(count).isPositive();
    assertThat(archived.json().get("instantFiles")).hasSize(count);

    Run again = jar("archive", demo.toString());
    assertThat(again.exitCode()).as("stderr: %s", again.err()).isZero();
    assertThat(again.out()).contains("archived 0 instant file(s) of 0 instant(s)");

    Run more = jar("archive", "file://" + demo.toAbsolutePath(), "--min", "5", "--max", "10");
    assertThat(more.exitCode()).as("stderr: %s", more.err()).isZero();
    assertThat(more.out()).contains("appended to .commits_.archive.1_1-0-1");

    Run text = jar("show", "archived", demo.toString());
    assertThat(text.exitCode()).isZero();
    List<String> lines = text.out().lines().toList();
    assertThat(lines.size() - 1).isGreaterThan(count);
    assertThat(lines.get(0)).matches("\\d{17} \\w+ (REQUESTED|INFLIGHT|COMPLETED)");
    assertThat(lines.get(lines.size() - 1))
        .isEqualTo((lines.size() - 1) + " instant file(s) in the archive");
  }

  @Test
  @Order(3)
  void serviceLoaderFindsTheFileAndMemoryStoragesInTheJar() throws Exception {
    Run unknown = jar("show", "active", "nosuch://bucket/t");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err().strip())
        .isEqualTo(
            "error: no storage for scheme 'nosuch'; known schemes: abfs, abfss, file, gs, hdfs, s3, s3a,"
                + " viewfs, wasb, wasbs");

    // A fresh JVM's memory volume is empty: found storage, no table.
    Run memory = jar("show", "active", "memory://it/t");
    assertThat(memory.exitCode()).isEqualTo(3);
    assertThat(memory.err().strip())
        .isEqualTo(
            "error: not a Hudi table: memory://it/t/.hoodie/hoodie.properties does not exist");
  }

  @Test
  @Order(4)
  void exitCodesAndErrorsOfAProcess() throws Exception {
    Run usage = jar("archive", demo.toString(), "--min", "30", "--max", "20");
    assertThat(usage.exitCode()).isEqualTo(2);
    assertThat(usage.out()).isEmpty();
    assertThat(usage.err().strip())
        .isEqualTo(
            "error: hoodie.keep.min.commits=30 must be less than hoodie.keep.max.commits=20");

    Path lock = demo.resolve(".hoodie/archived/.timeline_archive.lock.9");
    Files.writeString(lock, "owner=it\nexpiry=" + Instant.now().plus(1, ChronoUnit.HOURS) + "\n");
    Run locked = jar("archive", demo.toString(), "--verbose");
    assertThat(locked.exitCode()).isEqualTo(4);
    assertThat(locked.err()).startsWith("error: the archive of ").contains("is locked by it until");
    assertThat(locked.err()).contains("\tat io.timelinearchive.");
    Files.delete(lock);

    Run missing = jar("plan", work.resolve("missing").toString());
    assertThat(missing.exitCode()).isEqualTo(3);
    assertThat(missing.err().lines()).hasSize(1);
  }

  @Test
  @Order(5)
  void versionComesFromTheManifest() throws Exception {
    Run version = jar("--version");
    assertThat(version.exitCode()).isZero();
    assertThat(version.out().strip())
        .isEqualTo("timeline-archive " + System.getProperty("timeline-archive.version"));
  }

  @Test
  @Order(6)
  void theLauncherNextToTheJarRunsIt() throws Exception {
    Path launcher = JAR.resolveSibling("timeline-archive");
    assertThat(Files.isExecutable(launcher)).as("%s is executable", launcher).isTrue();

    Run version = run(List.of(launcher.toString(), "--version"));
    Run help = run(List.of(launcher.toString(), "help", "show", "archived"));

    assertThat(version.exitCode()).isZero();
    assertThat(version.out().strip())
        .isEqualTo("timeline-archive " + System.getProperty("timeline-archive.version"));
    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("--from=TS", "--to=TS", "--details");
  }

  @Test
  @Order(7)
  void theLauncherStopsTheJitAtC1UnlessJavaOptsSayOtherwise() throws Exception {
    String launcher = JAR.resolveSibling("timeline-archive").toString();

    Run byDefault =
        run(List.of(launcher, "--version"), Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal"));
    Run overridden =
        run(
            List.of(launcher, "--version"),
            Map.of("JAVA_OPTS", "-XX:+PrintFlagsFinal -XX:TieredStopAtLevel=4"));

    assertThat(byDefault.exitCode()).isZero();
    assertThat(tieredStopAtLevel(byDefault.out())).isEqualTo("1");
    assertThat(overridden.exitCode()).isZero();
    assertThat(tieredStopAtLevel(overridden.out())).isEqualTo("4");
  }

  /**
   * A Hudi 1.x table (src/test/resources/hudi1-table: files Hudi 1.0.1 wrote, a commit and a clean
   * active, one history file of its archiver's, with a manifest naming it): the full jar reads it,
   * Parquet and Hadoop's gzip codec included; a one-store jar without Hadoop says which jars do.
   */
  @Test
  @Order(8)
  void theJarReadsAHudi1TableAndAOneStoreJarWithoutHadoopSaysWhichDoes() throws Exception {
    Path table = work.resolve("hudi1-table");
    Path source = Path.of(TimelineArchiveJarIT.class.getResource("/hudi1-table").toURI());
    try (var files = Files.walk(source)) {
      for (Path p : files.toList()) {
        Path to = table.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.copy(p, to);
        }
      }
    }

    Run active = jar("show", "active", table.toString());
    assertThat(active.exitCode()).as(active.err()).isZero();
    assertThat(active.out().lines())
        .contains(
            "20261204212950529 commit REQUESTED",
            "20261204212950529 commit COMPLETED 20261204212950631",
            "20261204212950640 clean INFLIGHT",
            "6 instant file(s) in the active timeline");

    Run history = jar("show", "archived", table.toString(), "--details");
    assertThat(history.exitCode()).as(history.err()).isZero();
    assertThat(history.out())
        .containsPattern("(?m)^20261204212949681 \\w+ COMPLETED \\d{17}$")
        .contains("\"metadata\":{")
        .containsPattern("(?m)^[1-9]\\d* instant file\\(s\\) in the history$");

    Run s3 =
        run(
            List.of(
                JAVA.toString(),
                "-jar",
                JAR.resolveSibling("timeline-archive-s3.jar").toString(),
                "show",
                "archived",
                table.toString()));
    assertThat(s3.exitCode()).isEqualTo(3);
    assertThat(s3.err())
        .contains("is a Hudi 1.x table, which this jar does not read")
        .contains("use timeline-archive.jar or timeline-archive-hdfs.jar");
  }

  /** The value of TieredStopAtLevel in the JVM's -XX:+PrintFlagsFinal table. */
  private static String tieredStopAtLevel(String flags) {
    return flags
        .lines()
        .map(String::trim)
        .filter(line -> line.matches("\\S+\\s+TieredStopAtLevel\\s+=.*"))
        .map(line -> line.replaceAll(".*=\\s*(\\S+).*", "$1"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no TieredStopAtLevel in: " + flags));
  }
}
