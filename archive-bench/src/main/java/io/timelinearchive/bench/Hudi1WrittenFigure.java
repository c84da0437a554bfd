package io.timelinearchive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * P1-1x: P1 on tables Apache Hudi 1.0.1 wrote (table version 8), lengthened: whole processes on
 * identical copies, side by side in one run, each repetition in a different order. Ours is the CLI
 * jar's {@code archive} with P1's settings, Hudi's is 1.0.1's {@code TimelineArchiverV2} in a JVM
 * of its own on Hudi 1.0.1's class path ({@link Hudi1Side}) with the same settings, the floor
 * {@link Hudi1FloorChild}. Should our CLI fail on the table, every row says so, with the exit code
 * and the CLI's message, instead of a number.
 */
final class Hudi1WrittenFigure {
  private static final Logger LOG = LoggerFactory.getLogger(Hudi1WrittenFigure.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One measured table: median wall and CPU times (ours 0 when {@code oursUnavailable} says why
   * there are none), history bytes, what each side archived, our median run's phases.
   */
  record Measured(
      Hudi1WrittenTables.Table table,
      String oursUnavailable,
      long ours,
      long hudi,
      long floor,
      long oursCpu,
      long hudiCpu,
      long floorCpu,
      long ourBytes,
      long hudiBytes,
      int ourArchivedFiles,
      int hudiArchivedFiles,
      int repetitions,
      String phases,
      String runs,
      String sameTimeline) {}

  private final Path work;
  private final Path cliJar;
  private final Hudi1Side hudi1;

  Hudi1WrittenFigure(Path work, Path cliJar, Hudi1Side hudi1) {
    this.work = work;
    this.cliJar = HudiWrittenFigure.requireCliJar(cliJar);
    this.hudi1 = hudi1;
  }

  Measured measure(Hudi1WrittenTables.Table table, int repetitions) throws Exception {
    Path dir = work.resolve("p1x-" + table.dir().getFileName());
    Tables.delete(dir);
    Path logs = dir.resolve("logs");
    List<Long> ours = new ArrayList<>();
    List<Long> hudi = new ArrayList<>();
    List<Long> floor = new ArrayList<>();
    List<Long> oursCpu = new ArrayList<>();
    List<Long> hudiCpu = new ArrayList<>();
    List<Long> floorCpu = new ArrayList<>();
    List<String> phases = new ArrayList<>();
    String unavailable = null;
    long ourBytes = 0;
    long hudiBytes = 0;
    int ourArchived = 0;
    int hudiArchived = 0;
    String same = null;
    for (int rep = 0; rep < repetitions; rep++) {
      Path oursCopy = dir.resolve("ours-" + rep);
      Path hudiCopy = dir.resolve("hudi-" + rep);
      Path floorCopy = dir.resolve("floor-" + rep);
      for (Path copy : List.of(oursCopy, hudiCopy, floorCopy)) {
        Tables.copy(table.dir(), copy);
      }
      for (int turn = 0; turn < 3; turn++) {
        Timing.settle();
        switch ((turn + rep) % 3) {
          case 0 -> {
            String uri = Tables.uri(oursCopy).toString();
            ChildJvm.Outcome o =
                ChildJvm.runCli(cliJar, HudiWrittenFigure.cliArchive(uri, Map.of()), logs);
            if (o.exit() != 0) {
              unavailable = unavailable(o, uri);
              LOG.warn("P1-1x: our CLI on {}: {}", oursCopy, unavailable);
            } else {
              ours.add(o.nanos());
              oursCpu.add(o.cpuNanos());
              JsonNode report = JSON.readTree(o.stdout());
              phases.add(phases(report.get("phasesMillis")));
              ourArchived = report.path("filesDeleted").asInt();
            }
          }
          case 1 -> {
            ChildJvm.Outcome o = hudi1.archive(hudiCopy, logs);
            hudi.add(o.nanos());
            hudiCpu.add(o.cpuNanos());
          }
          default -> {
            ChildJvm.Outcome o =
                ChildJvm.runMain(Hudi1FloorChild.class, List.of(floorCopy.toString()), logs)
                    .requireSuccess("the 1.x floor on " + floorCopy);
            floor.add(o.nanos());
            floorCpu.add(o.cpuNanos());
          }
        }
      }
      hudiArchived = table.instantFiles() - Hudi1WrittenTables.count(hudiCopy);
      if (hudiArchived <= 0) {
        throw new IllegalStateException("Hudi 1.0.1's archiver archived nothing on " + hudiCopy);
      }
      hudiBytes = historyBytes(hudiCopy);
      if (unavailable == null) {
        ourBytes = historyBytes(oursCopy);
        same = compareTimelines(oursCopy, hudiCopy, same);
        if (rep == repetitions - 1) {
          same = same + "; " + hudiReads(oursCopy, hudiCopy, logs);
        }
      }
      Tables.delete(oursCopy);
      Tables.delete(hudiCopy);
      Tables.delete(floorCopy);
    }
    Tables.delete(dir);
    long oursMedian = ours.isEmpty() ? 0 : Timing.median(ours);
    int medianRun = ours.indexOf(oursMedian);
    Measured m =
        new Measured(
            table,
            unavailable,
            oursMedian,
            Timing.median(hudi),
            Timing.median(floor),
            oursCpu.isEmpty() ? 0 : Timing.median(oursCpu),
            Timing.median(hudiCpu),
            Timing.median(floorCpu),
            ourBytes,
            hudiBytes,
            ourArchived,
            hudiArchived,
            repetitions,
            medianRun >= 0 ? phases.get(medianRun) : String.join(" | ", phases),
            "ours "
                + ours.stream().map(Timing::millis).toList()
                + ", Hudi 1.0.1 "
                + hudi.stream().map(Timing::millis).toList()
                + ", floor "
                + floor.stream().map(Timing::millis).toList()
                + " wall; CPU (user + system) ours "
                + oursCpu.stream().map(Timing::millis).toList()
                + ", Hudi 1.0.1 "
                + hudiCpu.stream().map(Timing::millis).toList()
                + ", floor "
                + floorCpu.stream().map(Timing::millis).toList(),
            same != null ? same : "ours did not run");
    LOG.info(
        "P1-1x {}: ours {} Hudi 1.0.1 {} floor {}; history bytes ours {} Hudi {}",
        table.dir().getFileName(),
        unavailable != null ? unavailable : Timing.millis(m.ours()),
        Timing.millis(m.hudi()),
        Timing.millis(m.floor()),
        m.ourBytes(),
        m.hudiBytes());
    return m;
  }

  /** Three rows: Hudi 1.0.1 / ours, ours / floor, history bytes ours / Hudi 1.0.1. */
  static List<Row> rows(Measured m) {
    String size =
        "Hudi 1.0.1-written (table version 8), commits and inline cleans, "
            + Timing.count(m.table().instantFiles())
            + " instant files ("
            + (m.oursUnavailable() == null
                ? Timing.count(m.ourArchivedFiles()) + " archived by ours, "
                : "")
            + Timing.count(m.hudiArchivedFiles())
            + " archived by Hudi 1.0.1)";
    String hudi =
        "Hudi 1.0.1: " + Timing.millis(m.hudi()) + " (CPU " + Timing.millis(m.hudiCpu()) + ")";
    String floor =
        "floor (list, read every instant file, write one history file, manifest and _version_,"
            + " delete every instant file): "
            + Timing.millis(m.floor())
            + " (CPU "
            + Timing.millis(m.floorCpu())
            + ")";
    String common =
        "whole processes, median of "
            + m.repetitions()
            + "; "
            + m.runs()
            + (m.oursUnavailable() == null ? "; our phases (median run, ms): " + m.phases() : "")
            + "; "
            + m.sameTimeline();
    String bytesNote =
        "bytes of the LSM history each left in .hoodie/timeline/history/ (Parquet files, manifests"
            + " and _version_; Hadoop's .crc files aside)";
    if (m.oursUnavailable() != null) {
      String ours = "not available (" + m.oursUnavailable() + ")";
      return List.of(
          new Row(
              "P1-1x archival vs Hudi 1.0.1, local disk",
              size,
              ours,
              hudi,
              "—",
              "≥ 10×",
              null,
              common,
              Double.NaN),
          new Row(
              "P1-1x archival vs floor, local disk",
              size,
              ours,
              floor,
              "—",
              "≤ 3×",
              null,
              common,
              Double.NaN),
          new Row(
              "P1-1x history bytes",
              size,
              ours,
              "Hudi 1.0.1: " + Timing.count(m.hudiBytes()) + " bytes",
              "—",
              "≤ 1.2×",
              null,
              bytesNote,
              Double.NaN));
    }
    double speedup = (double) m.hudi() / m.ours();
    double overFloor = (double) m.ours() / m.floor();
    double bytes = (double) m.ourBytes() / m.hudiBytes();
    double cpuSpeedup = (double) m.hudiCpu() / m.oursCpu();
    double cpuOverFloor = (double) m.oursCpu() / m.floorCpu();
    String ours = Timing.millis(m.ours()) + " (CPU " + Timing.millis(m.oursCpu()) + ")";
    return List.of(
        new Row(
            "P1-1x archival vs Hudi 1.0.1, local disk",
            size,
            ours,
            hudi,
            Timing.ratio(speedup) + " (Hudi / ours; CPU " + Timing.ratio(cpuSpeedup) + ")",
            "≥ 10×",
            speedup >= 10,
            common,
            speedup),
        new Row(
            "P1-1x archival vs floor, local disk",
            size,
            ours,
            floor,
            Timing.ratio(overFloor) + " (ours / floor; CPU " + Timing.ratio(cpuOverFloor) + ")",
            "≤ 3×",
            overFloor <= 3,
            common,
            overFloor),
        new Row(
            "P1-1x history bytes",
            size,
            Timing.count(m.ourBytes()) + " bytes",
            "Hudi 1.0.1: " + Timing.count(m.hudiBytes()) + " bytes",
            Timing.ratio(bytes) + " (ours / Hudi 1.0.1)",
            "≤ 1.2×",
            bytes <= 1.2,
            bytesNote,
            bytes));
  }

  /**
   * Why our CLI did not archive: its exit code and its message (the {@code error} of the JSON
   * report it prints with {@code --json}, else its first line on standard error), with the copy's
   * location as {@code TABLE} (it changes with every run).
   */
  static String unavailable(ChildJvm.Outcome o, String tableUri) {
    String message = null;
    try {
      JsonNode error = JSON.readTree(o.stdout()).get("error");
      if (error != null) {
        message = error.asText();
      }
    } catch (IOException | RuntimeException e) {
      // no JSON report: standard error says what there is
    }
    if (message == null) {
      message =
          Stream.concat(o.stderr().lines(), o.stdout().lines())
              .filter(l -> !l.isBlank())
              .findFirst()
              .orElse("no output");
    }
    return "exit " + o.exit() + ": " + message.replace(tableUri, "TABLE").strip();
  }

  /**
   * Hudi 1.0.1 reads both copies after their archival: each valid by its reader, with as many
   * archived instants in ours as in its own, and the same active timeline.
   */
  private String hudiReads(Path ours, Path hudi, Path logs) throws Exception {
    ChildJvm.Outcome onOurs = hudi1.check(ours, logs);
    ChildJvm.Outcome onHudi = hudi1.check(hudi, logs);
    if (onOurs.exit() != 0) {
      LOG.warn("P1-1x: Hudi 1.0.1 finds our archived table invalid: {}", onOurs.stdout());
      return "Hudi 1.0.1's reader finds our archived copy invalid: "
          + onOurs.stdout().lines().filter(l -> l.startsWith("BAD")).limit(3).toList();
    }
    String oursCount = line(onOurs.stdout(), "HUDI1-ARCHIVED ");
    String hudiCount = line(onHudi.stdout(), "HUDI1-ARCHIVED ");
    return "Hudi 1.0.1 reads "
        + oursCount
        + " archived instants in ours, "
        + hudiCount
        + " in its own";
  }

  private static String line(String out, String prefix) {
    return out.lines()
        .filter(l -> l.startsWith(prefix))
        .map(l -> l.substring(prefix.length()).strip())
        .findFirst()
        .orElse("?");
  }

  private static String phases(JsonNode phasesMillis) {
    List<String> parts = new ArrayList<>();
    if (phasesMillis != null) {
      for (Map.Entry<String, JsonNode> p : phasesMillis.properties()) {
        parts.add(p.getKey() + " " + Math.round(p.getValue().asDouble()));
      }
    }
    return String.join(", ", parts);
  }

  /** Bytes of the files in {@code .hoodie/timeline/history/}, checksums aside. */
  static long historyBytes(Path table) throws IOException {
    Path history = Hudi1TimelineLengthener.timeline(table).resolve("history");
    if (!Files.isDirectory(history)) {
      return 0;
    }
    long bytes = 0;
    try (Stream<Path> files = Files.list(history)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (!f.getFileName().toString().endsWith(".crc")) {
          bytes += Files.size(f);
        }
      }
    }
    return bytes;
  }

  /** Names of the instant files left in {@code .hoodie/timeline/}. */
  static Set<String> activeFiles(Path table) throws IOException {
    Set<String> names = new TreeSet<>();
    for (List<String> files :
        Hudi1TimelineLengthener.instantFiles(Hudi1TimelineLengthener.timeline(table)).values()) {
      names.addAll(files);
    }
    return names;
  }

  private static String compareTimelines(Path ours, Path hudi, String previous) throws IOException {
    Set<String> oursLeft = activeFiles(ours);
    Optional<String> diff = Tables.difference(oursLeft, activeFiles(hudi));
    if (diff.isPresent()) {
      LOG.warn("P1-1x: {}", diff.get());
      return diff.get();
    }
    return previous != null
        ? previous
        : "same active timeline left by both (" + Timing.count(oursLeft.size()) + " files)";
  }
}
