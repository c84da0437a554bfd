package io.timelinearchive.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * P1 on tables Apache Hudi 0.15 wrote: whole processes on identical copies, side by side in one
 * run. Ours is the CLI jar ({@code archive --min 20 --max 30} with P1's other settings), Hudi's is
 * its {@code HoodieTimelineArchiver} in a JVM of its own, the floor a plain Java loop that reads
 * every instant file once and deletes it once. Each repetition runs the three in a different order.
 */
final class HudiWrittenFigure {
  private static final Logger LOG = LoggerFactory.getLogger(HudiWrittenFigure.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One measured table: median wall times, archive bytes and our median run's phases. */
  record Measured(
      HudiWrittenTables.Table table,
      long ours,
      long hudi,
      long floor,
      long oursCpu,
      long hudiCpu,
      long floorCpu,
      long ourBytes,
      long hudiBytes,
      int archivedFiles,
      int repetitions,
      String phases,
      String runs,
      String sameTimeline) {}

  private final Path work;
  private final Path cliJar;

  HudiWrittenFigure(Path work, Path cliJar) {
    this.work = work;
    this.cliJar = requireCliJar(cliJar);
  }

  /**
   * {@code cliJar}, which must be there with its launcher beside it.
   *
   * @throws IllegalStateException saying how to build it, if it is not
   */
  static Path requireCliJar(Path cliJar) {
    if (!Files.isRegularFile(cliJar)
        || !Files.isExecutable(cliJar.resolveSibling("timeline-archive"))) {
      throw new IllegalStateException(
          "no CLI jar with its launcher (timeline-archive) at "
              + cliJar
              + ": build it with ./mvnw -B -q package -pl archive-bench,archive-cli -am"
              + " -DskipTests, or name it with -Dbench.cli-jar=PATH");
    }
    return cliJar;
  }

  /** archive-cli/target/timeline-archive.jar of the same checkout, or -Dbench.cli-jar. */
  static Path defaultCliJar(Path benchTarget) {
    String override = System.getProperty("bench.cli-jar");
    return override != null
        ? Path.of(override)
        : benchTarget.getParent().getParent().resolve("archive-cli/target/timeline-archive.jar");
  }

  /**
   * Our CLI's arguments for P1's settings (Hudi's defaults, as {@link ArchivalFigure#SETTINGS}),
   * with {@code conf} as more {@code --conf} settings (a storage backend's).
   */
  static List<String> cliArchive(String tableUri, Map<String, String> conf) {
    Map<String, String> s = ArchivalFigure.SETTINGS;
    List<String> args =
        new ArrayList<>(
            List.of(
                "--json",
                "archive",
                "--min",
                s.get("hoodie.keep.min.commits"),
                "--max",
                s.get("hoodie.keep.max.commits"),
                "--batch",
                s.get("hoodie.commits.archival.batch"),
                "--conf",
                "hoodie.cleaner.policy=" + s.get("hoodie.cleaner.policy"),
                "--conf",
                "hoodie.cleaner.commits.retained=" + s.get("hoodie.cleaner.commits.retained")));
    conf.forEach(
        (k, v) -> {
          args.add("--conf");
          args.add(k + "=" + v);
        });
    args.add(tableUri);
    return args;
  }

  Measured measure(HudiWrittenTables.Table table, int repetitions) throws Exception {
    Path dir = work.resolve("p1h-" + table.dir().getFileName());
    Tables.delete(dir);
    Path logs = dir.resolve("logs");
    List<Long> ours = new ArrayList<>();
    List<Long> hudi = new ArrayList<>();
    List<Long> floor = new ArrayList<>();
    List<Long> oursCpu = new ArrayList<>();
    List<Long> hudiCpu = new ArrayList<>();
    List<Long> floorCpu = new ArrayList<>();
    List<String> phases = new ArrayList<>();
    long ourBytes = 0;
    long hudiBytes = 0;
    int archived = 0;
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
            ChildJvm.Outcome o =
                ChildJvm.runCli(cliJar, cliArchive(Tables.uri(oursCopy).toString(), Map.of()), logs)
                    .requireSuccess("our CLI on " + oursCopy);
            ours.add(o.nanos());
            oursCpu.add(o.cpuNanos());
            JsonNode report = JSON.readTree(o.stdout());
            phases.add(phases(report.get("phasesMillis")));
            archived = report.get("filesDeleted").asInt();
          }
          case 1 -> {
            ChildJvm.Outcome o =
                ChildJvm.runMain(
                        HudiArchiveChild.class,
                        List.of(hudiCopy.toString(), HudiWriter.TABLE_NAME),
                        logs)
                    .requireSuccess("Hudi's archiver on " + hudiCopy);
            hudi.add(o.nanos());
            hudiCpu.add(o.cpuNanos());
          }
          default -> {
            ChildJvm.Outcome o =
                ChildJvm.runMain(FloorChild.class, List.of(floorCopy.toString()), logs)
                    .requireSuccess("the floor on " + floorCopy);
            floor.add(o.nanos());
            floorCpu.add(o.cpuNanos());
          }
        }
      }
      ourBytes = archiveBytes(oursCopy);
      hudiBytes = archiveBytes(hudiCopy);
      same = compareTimelines(oursCopy, hudiCopy, same);
      Tables.delete(oursCopy);
      Tables.delete(hudiCopy);
      Tables.delete(floorCopy);
    }
    Tables.delete(dir);
    long oursMedian = Timing.median(ours);
    int medianRun = ours.indexOf(oursMedian);
    Measured m =
        new Measured(
            table,
            oursMedian,
            Timing.median(hudi),
            Timing.median(floor),
            Timing.median(oursCpu),
            Timing.median(hudiCpu),
            Timing.median(floorCpu),
            ourBytes,
            hudiBytes,
            archived,
            repetitions,
            medianRun >= 0 ? phases.get(medianRun) : String.join(" | ", phases),
            "ours "
                + ours.stream().map(Timing::millis).toList()
                + ", Hudi "
                + hudi.stream().map(Timing::millis).toList()
                + ", floor "
                + floor.stream().map(Timing::millis).toList()
                + " wall; CPU (user + system) ours "
                + oursCpu.stream().map(Timing::millis).toList()
                + ", Hudi "
                + hudiCpu.stream().map(Timing::millis).toList()
                + ", floor "
                + floorCpu.stream().map(Timing::millis).toList(),
            same);
    LOG.info(
        "P1 {}: ours {} Hudi {} floor {}; bytes ours {} Hudi {}; phases {}",
        table.dir().getFileName(),
        Timing.millis(m.ours()),
        Timing.millis(m.hudi()),
        Timing.millis(m.floor()),
        m.ourBytes(),
        m.hudiBytes(),
        m.phases());
    return m;
  }

  /** Three rows: Hudi / ours, ours / floor, archive bytes ours / Hudi. */
  List<Row> rows(Measured m, String variant) {
    String size =
        variant
            + ", "
            + Timing.count(m.table().instantFiles())
            + " instant files ("
            + Timing.count(m.archivedFiles())
            + " archived)";
    double speedup = (double) m.hudi() / m.ours();
    double overFloor = (double) m.ours() / m.floor();
    double bytes = (double) m.ourBytes() / m.hudiBytes();
    double cpuSpeedup = (double) m.hudiCpu() / m.oursCpu();
    double cpuOverFloor = (double) m.oursCpu() / m.floorCpu();
    String ours = Timing.millis(m.ours()) + " (CPU " + Timing.millis(m.oursCpu()) + ")";
    String common =
        "whole processes, median of "
            + m.repetitions()
            + "; "
            + m.runs()
            + "; our phases (median run, ms): "
            + m.phases()
            + "; "
            + m.sameTimeline();
    return List.of(
        new Row(
            "P1 archival vs Hudi, local disk",
            size,
            ours,
            "Hudi 0.15: " + Timing.millis(m.hudi()) + " (CPU " + Timing.millis(m.hudiCpu()) + ")",
            Timing.ratio(speedup) + " (Hudi / ours; CPU " + Timing.ratio(cpuSpeedup) + ")",
            "≥ 10×",
            speedup >= 10,
            common,
            speedup),
        new Row(
            "P1 archival vs floor, local disk",
            size,
            ours,
            "floor (read + delete every instant file): "
                + Timing.millis(m.floor())
                + " (CPU "
                + Timing.millis(m.floorCpu())
                + ")",
            Timing.ratio(overFloor) + " (ours / floor; CPU " + Timing.ratio(cpuOverFloor) + ")",
            "≤ 3×",
            overFloor <= 3,
            common,
            overFloor),
        new Row(
            "P1 archive bytes",
            size,
            Timing.count(m.ourBytes()) + " bytes",
            "Hudi 0.15: " + Timing.count(m.hudiBytes()) + " bytes",
            Timing.ratio(bytes) + " (ours / Hudi)",
            "≤ 1.2×",
            bytes <= 1.2,
            "bytes of the archive files each left in .hoodie/archived/ (Hadoop's .crc files aside)",
            bytes));
  }

  private static String phases(JsonNode phasesMillis) {
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, JsonNode> p : phasesMillis.properties()) {
      parts.add(p.getKey() + " " + Math.round(p.getValue().asDouble()));
    }
    return String.join(", ", parts);
  }

  /** Bytes of the archive files in {@code .hoodie/archived/}, checksums aside. */
  static long archiveBytes(Path table) throws IOException {
    Path archived = table.resolve(".hoodie").resolve("archived");
    if (!Files.isDirectory(archived)) {
      return 0;
    }
    long bytes = 0;
    try (Stream<Path> files = Files.list(archived)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String name = f.getFileName().toString();
        if (name.contains(".archive.") && !name.endsWith(".crc")) {
          bytes += Files.size(f);
        }
      }
    }
    return bytes;
  }

  private static String compareTimelines(Path ours, Path hudi, String previous) throws IOException {
    Set<String> oursLeft = Tables.activeFiles(ours);
    java.util.Optional<String> diff = Tables.difference(oursLeft, Tables.activeFiles(hudi));
    if (diff.isPresent()) {
      LOG.warn("P1: {}", diff.get());
      return diff.get();
    }
    return previous != null
        ? previous
        : "same active timeline left by both (" + Timing.count(oursLeft.size()) + " files)";
  }
}
