package io.timelinearchive.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The shaded CLI jar, run as a user runs it: a JVM of its own per command. */
final class Jar {
  static final Path JAR = Path.of(System.getProperty("timeline-archive.jar", "missing"));
  private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");
  // a guard against a hung run, not a measure of speed: a run on a server of a very busy machine
  // took over 3 minutes on Azurite
  private static final long TIMEOUT_MINUTES = Long.getLong("reliability.run-timeout-minutes", 15);

  private Jar() {}

  record Run(int exitCode, String out, String err) {
    String both() {
      return out + err;
    }

    /**
     * Standard error without the progress lines ("[1.2s] read") a run prints once it has taken a
     * second, which a busy machine makes any run do.
     */
    String errors() {
      return err.lines()
          .filter(l -> !l.matches("^\\[[0-9.]+s\\] [a-z ]+$"))
          .map(l -> l + "\n")
          .collect(java.util.stream.Collectors.joining());
    }
  }

  /** A started process whose output goes to files, so it can be read after a SIGKILL. */
  record Started(Process process, Path out, Path err) {
    Run await() throws IOException, InterruptedException {
      if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly().waitFor();
        throw new AssertionError("timed out: " + process.info().commandLine().orElse("?"));
      }
      return new Run(
          process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
    }

    /** SIGKILL on Linux: no shutdown hooks, no finally blocks, no flush. */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor();
    }

    String errSoFar() throws IOException {
      return Files.readString(err, UTF_8);
    }

    /** Lets a run started by {@link #startPausingBefore} go on. */
    void resume() throws IOException {
      try (java.io.OutputStream in = process.getOutputStream()) {
        in.write('\n');
      }
    }
  }

  static Started start(Path work, List<String> args) throws IOException {
    return start(
        work, List.of(), args, ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
  }

  /**
   * Starts a run that stops on entering {@code phase} (the CLI's test hook), says "paused before
   * ..." on standard error, and goes on at {@link Started#resume()}.
   */
  static Started startPausingBefore(Path work, String phase, List<String> args) throws IOException {
    return start(
        work,
        List.of("-Dtimeline-archive.test.pause-before=" + phase),
        args,
        ProcessBuilder.Redirect.PIPE);
  }

  private static Started start(
      Path work, List<String> jvmOptions, List<String> args, ProcessBuilder.Redirect input)
      throws IOException {
    List<String> command = command(jvmOptions);
    command.addAll(SharedClasses.options());
    command.add("-jar");
    command.add(JAR.toString());
    command.addAll(args);
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    Process process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .redirectInput(input)
            .start();
    return new Started(process, out, err);
  }

  private static List<String> command(List<String> jvmOptions) {
    List<String> command = new ArrayList<>();
    command.add(JAVA.toString());
    // small heap and one compiler thread: many of these run at once on a small machine
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.addAll(jvmOptions);
    return command;
  }

  /**
   * A class-data-sharing archive of the jar's classes, made once per test JVM: a run spends about a
   * quarter of its CPU parsing and verifying the classes it loads from the jar, and every run loads
   * mostly the same ones, so they are mapped ready from the archive instead (a run of a 400-file
   * table: 1.45 s of CPU without, 1.1 s with). It changes nothing a run does. The training run
   * archives the demo's sample table on local disk and reads it back; classes only a server's SDK
   * loads still come from the jar. If the archive cannot be made or used, runs go on without it.
   */
  private static final class SharedClasses {
    private static List<String> options;

    private SharedClasses() {}

    static synchronized List<String> options() {
      if (options == null) {
        options = make();
      }
      return options;
    }

    private static List<String> make() {
      try {
        Path dir = Files.createDirectories(Path.of("target").toAbsolutePath().resolve("cli-cds"));
        Path archive = dir.resolve("timeline-archive.jsa");
        Files.deleteIfExists(archive);
        Path table = Files.createTempDirectory(dir, "demo-");
        boolean trained =
            runs(dir, "-XX:ArchiveClassesAtExit=" + archive, "demo", table.toString());
        Tables.delete(table);
        if (!trained || !Files.isRegularFile(archive)) {
          System.out.println("class-data sharing: the training run failed; runs go without it");
          return List.of();
        }
        String option = "-XX:SharedArchiveFile=" + archive;
        // -Xshare:on fails where the archive cannot be mapped, instead of going on without it
        if (!runs(dir, option, "-Xshare:on", "--version")) {
          System.out.println("class-data sharing: the archive cannot be used; runs go without it");
          return List.of();
        }
        return List.of(option);
      } catch (IOException e) {
        System.out.println("class-data sharing: " + e + "; runs go without it");
        return List.of();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return List.of();
      }
    }

    /**
     * Runs the jar with a JVM option, and more JVM options ({@code -X...}) and arguments; whether
     * it exits 0 within the timeout. Its output goes to a log beside the archive.
     */
    private static boolean runs(Path dir, String jvmOption, String... more)
        throws IOException, InterruptedException {
      List<String> options = new ArrayList<>(List.of(jvmOption));
      List<String> args = new ArrayList<>();
      for (String m : more) {
        (m.startsWith("-X") ? options : args).add(m);
      }
      List<String> command = command(options);
      command.add("-jar");
      command.add(JAR.toString());
      command.addAll(args);
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("cds.log").toFile()))
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
      if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly().waitFor();
        return false;
      }
      return process.exitValue() == 0;
    }
  }

  static Run run(Path work, String... args) throws IOException, InterruptedException {
    return start(work, List.of(args)).await();
  }
}
