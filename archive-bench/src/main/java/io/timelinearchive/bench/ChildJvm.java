package io.timelinearchive.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A whole process of its own, timed from its start to its exit, with what it printed. */
final class ChildJvm {
  private static final long TIMEOUT_MINUTES = 60;
  private static final String CPU_PREFIX = "CHILD-CPU-SECONDS ";

  /**
   * What one process did: its exit code, its wall time, the CPU time it used (user and system, as
   * the shell's {@code time} counts it: on a shared machine it moves much less than the wall time)
   * and its standard output and error.
   */
  record Outcome(int exit, long nanos, long cpuNanos, String stdout, String stderr) {
    /** The outcome, or an error naming {@code what} and the end of what it printed. */
    Outcome requireSuccess(String what) {
      if (exit != 0) {
        throw new IllegalStateException(
            what + " exited with " + exit + ": " + tail(stderr) + " / " + tail(stdout));
      }
      return this;
    }

    private static String tail(String text) {
      List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
      return String.join(" / ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
    }
  }

  private ChildJvm() {}

  /** {@code java} of this JVM with {@code arguments}, e.g. {@code -jar x.jar ...}. */
  static Outcome run(List<String> arguments, Path logs) throws IOException, InterruptedException {
    List<String> java = new ArrayList<>();
    java.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    java.addAll(arguments);
    return exec(java, new ProcessBuilder(), logs);
  }

  /**
   * Our CLI as a user runs it: the {@code timeline-archive} launcher next to {@code cliJar}, with
   * the JVM options the launcher gives, on this JVM's JDK.
   */
  static Outcome runCli(Path cliJar, List<String> arguments, Path logs)
      throws IOException, InterruptedException {
    List<String> launcher = new ArrayList<>();
    launcher.add(cliJar.resolveSibling("timeline-archive").toString());
    launcher.addAll(arguments);
    ProcessBuilder builder = new ProcessBuilder();
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().remove("JAVA_OPTS");
    return exec(launcher, builder, logs);
  }

  private static Outcome exec(List<String> program, ProcessBuilder builder, Path logs)
      throws IOException, InterruptedException {
    // bash's time keyword prints the CPU time of the child it waited for, on standard error
    List<String> command =
        new ArrayList<>(
            List.of("bash", "-c", "TIMEFORMAT='" + CPU_PREFIX + "%U %S'; time \"$@\"", "child"));
    command.addAll(program);
    Files.createDirectories(logs);
    Path out = Files.createTempFile(logs, "child-", ".out");
    Path err = Files.createTempFile(logs, "child-", ".err");
    long start = System.nanoTime();
    Process child =
        builder.command(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!child.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      child.destroyForcibly();
      child.waitFor();
      throw new IllegalStateException(
          "no exit after " + TIMEOUT_MINUTES + " minutes: " + String.join(" ", program));
    }
    long nanos = System.nanoTime() - start;
    String stderr = Files.readString(err, UTF_8);
    long cpu = 0;
    StringBuilder rest = new StringBuilder();
    for (String line : stderr.lines().toList()) {
      if (line.startsWith(CPU_PREFIX)) {
        for (String seconds : line.substring(CPU_PREFIX.length()).split(" ")) {
          cpu += (long) (Double.parseDouble(seconds) * 1e9);
        }
      } else {
        rest.append(line).append('\n');
      }
    }
    Outcome outcome =
        new Outcome(child.exitValue(), nanos, cpu, Files.readString(out, UTF_8), rest.toString());
    Files.delete(out);
    Files.delete(err);
    return outcome;
  }

  /** {@code main} of {@code mainClass} on this JVM's class path. */
  static Outcome runMain(Class<?> mainClass, List<String> arguments, Path logs)
      throws IOException, InterruptedException {
    return runMain(mainClass.getName(), System.getProperty("java.class.path"), arguments, logs);
  }

  /**
   * {@code main} of the class named {@code mainClass} on {@code classPath} (another one than this
   * JVM's: Hudi 1.0.1's side, see {@link Hudi1Side}).
   */
  static Outcome runMain(String mainClass, String classPath, List<String> arguments, Path logs)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass);
    command.addAll(arguments);
    return run(command, logs);
  }
}
