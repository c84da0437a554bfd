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
    List<String> command = new ArrayList<>();
    command.add(JAVA.toString());
    // small heap and one compiler thread: many of these run at once on a small machine
    command.add("-Xmx256m");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-XX:+UseSerialGC");
    command.addAll(jvmOptions);
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

  static Run run(Path work, String... args) throws IOException, InterruptedException {
    return start(work, List.of(args)).await();
  }
}
