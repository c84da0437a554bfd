package io.timelinearchive.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * P5: one archival run of a large table in a JVM of its own limited to a small heap; success, or
 * the OutOfMemoryError it died of.
 */
final class MemoryFigure {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryFigure.class);
  static final String RESULT_PREFIX = "MEMORY-RESULT ";

  private final Path work;
  private final Templates templates;

  MemoryFigure(Path work, Templates templates) {
    this.work = work;
    this.templates = templates;
  }

  Row measure(int size, String heap) throws Exception {
    Templates.Template template = templates.get(size);
    Path table = work.resolve("p5-" + size);
    Tables.delete(table);
    Tables.copy(template.dir(), table);
    Path log = work.resolve("p5-" + size + ".log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(MemoryChild.class.getName());
    command.add(table.toAbsolutePath().toString());
    long start = System.nanoTime();
    Process child =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    boolean finished = child.waitFor(30, TimeUnit.MINUTES);
    if (!finished) {
      child.destroyForcibly();
      child.waitFor();
    }
    long elapsed = System.nanoTime() - start;
    String output = Files.readString(log, UTF_8);
    Tables.delete(table);
    String result =
        output
            .lines()
            .filter(l -> l.startsWith(RESULT_PREFIX))
            .map(l -> l.substring(RESULT_PREFIX.length()))
            .findFirst()
            .orElse(null);
    boolean oom = output.contains("OutOfMemoryError");
    boolean ok = finished && child.exitValue() == 0 && result != null && !oom;
    String ours;
    String note;
    if (ok) {
      ours = "archived, no OutOfMemoryError";
      note = result + "; child JVM " + Timing.millis(elapsed) + " in all";
    } else if (oom) {
      ours = "OutOfMemoryError";
      note =
          firstLine(output, "OutOfMemoryError")
              + " (exit "
              + (finished ? child.exitValue() : "timeout")
              + " after "
              + Timing.millis(elapsed)
              + "); last lines: "
              + tail(output, 3);
    } else {
      ours = finished ? "failed (exit " + child.exitValue() + ")" : "timed out";
      note = tail(output, 5);
    }
    LOG.info("P5 {} files at -Xmx{}: {} ({})", size, heap, ours, note);
    return new Row(
        "P5 memory",
        Timing.count(template.written().files().size()) + " instant files, -Xmx" + heap,
        ours,
        "—",
        "—",
        "no OutOfMemoryError",
        ok,
        note,
        Double.NaN);
  }

  private static String firstLine(String output, String containing) {
    return output.lines().filter(l -> l.contains(containing)).findFirst().orElse("").strip();
  }

  private static String tail(String output, int lines) {
    List<String> all = output.lines().filter(l -> !l.isBlank()).toList();
    return String.join(
        " / ",
        all.subList(Math.max(0, all.size() - lines), all.size()).stream()
            .map(String::strip)
            .toList());
  }
}
