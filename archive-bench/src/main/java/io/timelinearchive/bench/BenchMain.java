package io.timelinearchive.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the figures of issues 9 and 17 and writes the results table.
 *
 * <pre>
 * java -jar archive-bench/target/archive-bench.jar [--quick] [--only P1,P3] [--out bench/results]
 *     [--work DIR] [--repetitions N] [--big-repetitions N] [--p1-sizes N,N] [--wide-size N]
 *     [--sample-size N] [--p1x-sizes N,N]
 * </pre>
 *
 * <p>{@code P1-1X} and {@code P2-1X} are P1 and P2 on a table Hudi 1.0.1 wrote (table version 8),
 * beside Hudi 1.0.1's own archiver; Hudi 1.0.1 runs from archive-bench-hudi1 (see {@link
 * Hudi1Side}).
 *
 * <p>{@code --quick} runs every figure at small sizes to check the harness, and writes its table
 * under {@code <out>/quick/}. {@code --only} runs some figures; the table keeps the other figures'
 * rows from their latest run.
 */
public final class BenchMain {
  private static final Logger LOG = LoggerFactory.getLogger(BenchMain.class);

  private BenchMain() {}

  record Options(
      boolean quick,
      Set<String> only,
      Path out,
      Path work,
      int repetitions,
      int bigRepetitions,
      List<Integer> p1Sizes,
      int wideSize,
      int sampleSize,
      List<Integer> p1xSizes) {
    static Options parse(String[] args) throws IOException {
      boolean quick = false;
      Set<String> only =
          new LinkedHashSet<>(List.of("P1", "P2", "P3", "P4", "P5", "P7", "P1-1X", "P2-1X"));
      Path out = Path.of("bench", "results");
      Path work = null;
      Integer repetitions = null;
      int bigRepetitions = 1;
      List<Integer> p1Sizes = null;
      Integer wideSize = null;
      Integer sampleSize = null;
      List<Integer> p1xSizes = null;
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--quick" -> quick = true;
          case "--only" -> {
            only = new LinkedHashSet<>();
            for (String f : value(args, ++i, "--only").split(",")) {
              only.add(f.strip().toUpperCase(Locale.ROOT));
            }
          }
          case "--out" -> out = Path.of(value(args, ++i, "--out"));
          case "--work" -> work = Path.of(value(args, ++i, "--work"));
          case "--repetitions" -> repetitions = Integer.parseInt(value(args, ++i, "--repetitions"));
          case "--big-repetitions" ->
              bigRepetitions = Integer.parseInt(value(args, ++i, "--big-repetitions"));
          case "--p1-sizes" -> p1Sizes = sizes(value(args, ++i, "--p1-sizes"));
          case "--p1x-sizes" -> p1xSizes = sizes(value(args, ++i, "--p1x-sizes"));
          case "--wide-size" -> wideSize = Integer.parseInt(value(args, ++i, "--wide-size"));
          case "--sample-size" -> sampleSize = Integer.parseInt(value(args, ++i, "--sample-size"));
          default ->
              throw new IllegalArgumentException(
                  "unknown option "
                      + args[i]
                      + "; usage: [--quick] [--only P1,P2,P3,P4,P5,P7,P1-1X,P2-1X] [--out DIR]"
                      + " [--work DIR] [--repetitions N] [--big-repetitions N] [--p1-sizes N,N]"
                      + " [--wide-size N] [--sample-size N] [--p1x-sizes N,N]");
        }
      }
      if (work == null) {
        work = Files.createTempDirectory("timeline-archive-bench-");
      }
      return new Options(
          quick,
          only,
          out,
          work,
          repetitions != null ? repetitions : quick ? 1 : 3,
          bigRepetitions,
          p1Sizes != null ? p1Sizes : quick ? List.of(1_000) : List.of(10_000, 24_000, 100_000),
          wideSize != null ? wideSize : quick ? 1_000 : 3_000,
          sampleSize != null ? sampleSize : quick ? 1_000 : 10_000,
          p1xSizes != null ? p1xSizes : quick ? List.of(1_000) : List.of(10_000, 24_000));
    }

    private static List<Integer> sizes(String list) {
      List<Integer> sizes = new ArrayList<>();
      for (String n : list.split(",")) {
        if (!n.isBlank()) {
          sizes.add(Integer.parseInt(n.strip()));
        }
      }
      return sizes;
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value");
      }
      return args[i];
    }
  }

  public static void main(String[] args) throws Exception {
    Options options = Options.parse(args);
    loadEmulatorSettings();
    Results.Machine machine = Results.Machine.current();
    LOG.info("benchmark on {}; work folder {}", machine.describe(), options.work());
    List<Results.FigureRun> runs = run(options, machine);
    // quick runs go to a folder of their own: they must not replace the figures of record
    Path out = options.quick() ? options.out().resolve("quick") : options.out();
    String table = Results.write(out, runs, options.quick());
    System.out.println(table);
    LOG.info("results written to {}", out.resolve("latest.md"));
    Tables.delete(options.work());
    // the emulators' shutdown hooks stop them
    System.exit(0);
  }

  static List<Results.FigureRun> run(Options options, Results.Machine machine) throws Exception {
    Path work = options.work();
    Templates templates = new Templates(work.resolve("templates"));
    List<Results.FigureRun> runs = new ArrayList<>();
    boolean quick = options.quick();
    int reps = options.repetitions();
    Path hudiArchived = null;
    if (options.only().contains("P1")) {
      // one saved figure per table, so that one table can be measured again alone
      runs.addAll(hudiWritten(options, machine));
      if (options.sampleSize() > 0) {
        // the sample table of the earlier figures, in process, as an extra line
        ZonedDateTime start = now();
        ArchivalFigure sample = new ArchivalFigure(work, templates);
        sample.warmUp();
        Row row = sample.measure(options.sampleSize(), reps);
        runs.add(new Results.FigureRun("P1-sample", start, machine, List.of(row)));
      }
    }
    if (options.only().contains("P4")) {
      // Hudi's archive of the largest sample table, read by both readers
      hudiArchived = new ArchivalFigure(work, templates).hudiArchivedOnly(quick ? 5_000 : 100_000);
    }
    if (options.only().contains("P2")) {
      ZonedDateTime start = now();
      runs.add(
          new Results.FigureRun(
              "P2", start, machine, new RequestsFigure().measure(quick ? 300 : 3_000)));
    }
    if (options.only().contains("P3")) {
      ZonedDateTime start = now();
      int[] sizes = quick ? new int[] {10_000, 100_000} : new int[] {10_000, 100_000, 1_000_000};
      runs.add(
          new Results.FigureRun(
              "P3", start, machine, new SelectionFigure(quick ? 3 : 9, 5_000_000).measure(sizes)));
    }
    if (options.only().contains("P4")) {
      ZonedDateTime start = now();
      runs.add(
          new Results.FigureRun("P4", start, machine, new ReadFigure(reps).measure(hudiArchived)));
    }
    if (options.only().contains("P5")) {
      ZonedDateTime start = now();
      runs.add(
          new Results.FigureRun(
              "P5",
              start,
              machine,
              List.of(new MemoryFigure(work, templates).measure(quick ? 5_000 : 100_000, "256m"))));
    }
    if (options.only().contains("P7")) {
      ZonedDateTime start = now();
      // 1,000 instants: commits and cleans, 3 files each
      HudiWrittenTables.Table table =
          HudiWrittenTables.besideBuild().get(HudiWriter.Shape.NARROW, quick ? 600 : 3_000);
      LatencyFigure p7 =
          new LatencyFigure(
              work, HudiWrittenFigure.defaultCliJar(HudiWrittenTables.benchTarget()), reps);
      runs.add(new Results.FigureRun("P7", start, machine, List.of(p7.measure(table))));
    }
    if (options.only().contains("P1-1X")) {
      runs.addAll(hudi1Written(options, machine));
    }
    if (options.only().contains("P2-1X")) {
      ZonedDateTime start = now();
      Hudi1RequestsFigure p2x =
          new Hudi1RequestsFigure(
              work,
              Hudi1WrittenTables.besideBuild(),
              Hudi1Side.locate(),
              HudiWrittenFigure.defaultCliJar(HudiWrittenTables.benchTarget()));
      runs.add(new Results.FigureRun("P2-1x", start, machine, p2x.measure(quick ? 300 : 3_000)));
    }
    return runs;
  }

  /**
   * P1-1x: P1 on tables Hudi 1.0.1's write client wrote (table version 8), lengthened, beside Hudi
   * 1.0.1's archiver; narrow, at some sizes.
   */
  private static List<Results.FigureRun> hudi1Written(Options options, Results.Machine machine)
      throws Exception {
    Hudi1Side hudi1 = Hudi1Side.locate();
    Hudi1WrittenTables tables = Hudi1WrittenTables.besideBuild();
    Hudi1WrittenFigure figure =
        new Hudi1WrittenFigure(
            options.work(),
            HudiWrittenFigure.defaultCliJar(HudiWrittenTables.benchTarget()),
            hudi1);
    List<Results.FigureRun> runs = new ArrayList<>();
    for (int size : options.p1xSizes()) {
      ZonedDateTime start = now();
      List<Row> rows = figure.rows(figure.measure(tables.get(size), options.repetitions()));
      runs.add(
          new Results.FigureRun(
              String.format(Locale.ROOT, "P1-1x-%06d", size), start, machine, rows));
    }
    return runs;
  }

  /** P1 on tables Hudi's write client wrote, lengthened: narrow at some sizes, and wide. */
  private static List<Results.FigureRun> hudiWritten(Options options, Results.Machine machine)
      throws Exception {
    HudiWrittenTables tables = HudiWrittenTables.besideBuild();
    HudiWrittenFigure figure =
        new HudiWrittenFigure(
            options.work(), HudiWrittenFigure.defaultCliJar(HudiWrittenTables.benchTarget()));
    List<Results.FigureRun> runs = new ArrayList<>();
    for (int size : options.p1Sizes()) {
      ZonedDateTime start = now();
      // the 100,000-file runs take minutes each: --big-repetitions of them
      int repetitions = size >= 100_000 ? options.bigRepetitions() : options.repetitions();
      List<Row> rows =
          figure.rows(
              figure.measure(tables.get(HudiWriter.Shape.NARROW, size), repetitions),
              "Hudi-written, commits and inline cleans");
      runs.add(
          new Results.FigureRun(String.format(Locale.ROOT, "P1-%06d", size), start, machine, rows));
    }
    if (options.wideSize() > 0) {
      ZonedDateTime start = now();
      List<Row> rows =
          figure.rows(
              figure.measure(
                  tables.get(HudiWriter.Shape.WIDE, options.wideSize()), options.repetitions()),
              "Hudi-written, wide (200-column schema, 200 write stats per commit)");
      runs.add(new Results.FigureRun("P1-wide", start, machine, rows));
    }
    return runs;
  }

  private static ZonedDateTime now() {
    return ZonedDateTime.now(ZoneOffset.UTC);
  }

  /** Where the build put the emulators (Azurite from npm, fake-gcs-server from go install). */
  private static void loadEmulatorSettings() throws IOException {
    Properties p = new Properties();
    try (InputStream in = BenchMain.class.getResourceAsStream("/archive-bench.properties")) {
      if (in != null) {
        p.load(in);
      }
    }
    for (String key : p.stringPropertyNames()) {
      if (System.getProperty(key) == null) {
        System.setProperty(key, p.getProperty(key));
      }
    }
  }
}
