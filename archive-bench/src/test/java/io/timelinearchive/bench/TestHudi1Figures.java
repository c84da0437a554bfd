package io.timelinearchive.bench;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The 1.x figures' parts on a table Apache Hudi 1.0.1's own write client wrote (in a JVM of its own
 * on archive-bench-hudi1's class path): the lengthened table is one Hudi 1.0.1's reader takes as
 * valid, every instant time inside a copy refers to the copy's own predecessors, Hudi 1.0.1's
 * archiver archives it into an LSM history, the floor leaves no instant file, and our CLI's refusal
 * becomes a row that says so.
 */
class TestHudi1Figures {
  private static final Pattern TIME = Pattern.compile("(?<!\\d)\\d{17}(?!\\d)");
  private static final int SIZE = 300;

  private static Path cache;
  private static Hudi1Side hudi1;
  private static Path written;

  @TempDir Path tmp;

  @BeforeAll
  static void writeWithHudi1() throws Exception {
    cache = Files.createTempDirectory("bench-hudi1-tables");
    hudi1 = Hudi1Side.locate();
    written = new Hudi1WrittenTables(cache, hudi1).written();
  }

  @AfterAll
  static void deleteTables() throws Exception {
    Tables.delete(cache);
  }

  @Test
  void hudi101WroteAVersion8TableEndingWithACommitAndAClean() throws Exception {
    assertThat(Files.readString(written.resolve(".hoodie/hoodie.properties")))
        .contains("hoodie.table.version=8")
        .contains("hoodie.timeline.layout.version=2");
    TreeMap<String, List<String>> instants =
        Hudi1TimelineLengthener.instantFiles(Hudi1TimelineLengthener.timeline(written));
    assertThat(instants.lastEntry().getValue()).anyMatch(n -> n.endsWith(".clean"));
    // the Avro content of 1.x: commit metadata too
    Path commit =
        Hudi1TimelineLengthener.timeline(written)
            .resolve(
                instants.lowerEntry(instants.lastKey()).getValue().stream()
                    .filter(n -> n.endsWith(".commit") && n.contains("_"))
                    .findFirst()
                    .orElseThrow());
    assertThat(new String(Files.readAllBytes(commit), 0, 4, US_ASCII)).isEqualTo("Obj\u0001");
  }

  @Test
  void hudi101ReadsTheLengthenedTableAsValid() throws Exception {
    Path table = lengthened("valid");
    int files = Hudi1WrittenTables.count(table);
    assertThat(files).isGreaterThanOrEqualTo(SIZE);

    ChildJvm.Outcome check = hudi1.check(table, tmp.resolve("logs"));

    assertThat(check.exit()).as(check.stdout() + check.stderr()).isZero();
    // Hudi's active timeline holds every instant on disk, each with the times its file names say
    TreeMap<String, List<String>> onDisk =
        Hudi1TimelineLengthener.instantFiles(Hudi1TimelineLengthener.timeline(table));
    List<String> expected = new ArrayList<>();
    onDisk.forEach(
        (time, names) ->
            expected.add(
                time
                    + " "
                    + Hudi1TimelineLengthener.completion(names)
                    + " "
                    + (names.stream().anyMatch(n -> n.contains(".clean")) ? "clean" : "commit")
                    + " COMPLETED"));
    assertThat(check.stdout().lines().filter(l -> l.startsWith("ACTIVE ")).map(l -> l.substring(7)))
        .containsExactlyElementsOf(expected);
    assertThat(check.stdout()).contains("HUDI1-ACTIVE " + onDisk.size());
  }

  @Test
  void everyInstantTimeInsideACopyReferstoItsOwnPredecessors() throws Exception {
    Path table = lengthened("consistent");
    Path timeline = Hudi1TimelineLengthener.timeline(table);
    TreeMap<String, List<String>> before =
        Hudi1TimelineLengthener.instantFiles(Hudi1TimelineLengthener.timeline(written));
    TreeMap<String, List<String>> after = Hudi1TimelineLengthener.instantFiles(timeline);
    // each time (requested or completion) of the lengthened timeline: its kind and rank in it
    Map<String, String> rank = new HashMap<>();
    Map<String, Integer> counts = new HashMap<>();
    after.forEach(
        (time, names) -> {
          String kind = names.stream().anyMatch(n -> n.contains(".clean")) ? "clean" : "commit";
          int r = counts.merge(kind, 1, Integer::sum);
          rank.put(time, kind + " " + r + " requested");
          String completion = Hudi1TimelineLengthener.completion(names);
          rank.put(completion, kind + " " + r + " completion");
        });
    String templateCommit = before.lowerKey(before.lastKey());
    Map<String, List<String>> signatures = new HashMap<>();
    for (String time : after.tailMap(templateCommit, true).keySet()) {
      for (String name : after.get(time)) {
        String state = name.replaceFirst("^\\d{17}(_\\d{17})?", "");
        String own = rank.get(time);
        byte[] content = Files.readAllBytes(timeline.resolve(name));
        List<String> references = new ArrayList<>();
        // a clean plan names the files it deletes by absolute path: the folder Hudi wrote the
        // table in (a temporary one, whose random digits may run to 17) is no instant time
        Matcher m =
            TIME.matcher(
                new String(content, US_ASCII).replace(cache.toAbsolutePath().toString(), ""));
        while (m.find()) {
          String ref = rank.get(m.group());
          assertThat(ref)
              .as("%s refers to %s, no instant of the table", name, m.group())
              .isNotNull();
          references.add(relative(own, ref));
        }
        List<String> template = signatures.putIfAbsent(state, references);
        if (template != null) {
          assertThat(references).as("%s refers as its template does", name).isEqualTo(template);
        }
      }
    }
    assertThat(signatures.keySet())
        .contains(".commit.requested", ".inflight", ".commit", ".clean.requested", ".clean");
    // not vacuous: a commit names its file's commit and the previous one, a clean its own start,
    // the commit it retains from, the last commit and the files it deleted
    assertThat(signatures.get(".commit")).contains("commit 0 requested (from a commit)");
    assertThat(signatures.get(".commit")).anyMatch(r -> r.startsWith("commit -1 requested"));
    assertThat(signatures.get(".clean")).hasSizeGreaterThanOrEqualTo(4);
    assertThat(after.size()).isGreaterThan(before.size() + 50);
    // the copies' file names carry completion times after their requested times
    after.forEach(
        (time, names) -> assertThat(Hudi1TimelineLengthener.completion(names)).isGreaterThan(time));
  }

  @Test
  void hudi101sArchiverArchivesTheLengthenedTableIntoAnLsmHistory() throws Exception {
    Path table = lengthened("archived");
    int files = Hudi1WrittenTables.count(table);

    ChildJvm.Outcome run = hudi1.archive(table, tmp.resolve("logs"));

    assertThat(run.stdout()).containsPattern("HUDI1-ARCHIVED [1-9]\\d* TimelineArchiverV2");
    assertThat(Hudi1WrittenTables.count(table)).isLessThan(files / 2);
    Path history = Hudi1TimelineLengthener.timeline(table).resolve("history");
    assertThat(history.resolve("_version_")).exists();
    try (Stream<Path> names = Files.list(history)) {
      assertThat(names.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".parquet"));
    }
    assertThat(Hudi1WrittenFigure.historyBytes(table)).isPositive();
    ChildJvm.Outcome check = hudi1.check(table, tmp.resolve("logs"));
    assertThat(check.exit()).as(check.stdout() + check.stderr()).isZero();
    assertThat(check.stdout()).containsPattern("HUDI1-ARCHIVED [1-9]");
  }

  @Test
  void theFloorReadsWritesAndDeletesOnce() throws Exception {
    Path table = lengthened("floor");
    int files = Hudi1WrittenTables.count(table);

    ChildJvm.Outcome floor =
        ChildJvm.runMain(Hudi1FloorChild.class, List.of(table.toString()), tmp.resolve("logs"))
            .requireSuccess("floor");

    assertThat(floor.stdout()).startsWith("FLOOR " + files + " files ");
    assertThat(Hudi1WrittenTables.count(table)).isZero();
    assertThat(Hudi1TimelineLengthener.timeline(table).resolve("history/_version_"))
        .hasContent("1");
  }

  @Test
  void ourRefusalBecomesARowThatSaysSoNotANumber() throws Exception {
    ChildJvm.Outcome refused =
        new ChildJvm.Outcome(
            3,
            1_000_000,
            1_000_000,
            "{\n  \"schemaVersion\" : 1,\n  \"error\" : \"file:///t/x is not a table timeline-archive"
                + " handles: hoodie.table.version=8\",\n  \"exitCode\" : 3\n}\n",
            "error: file:///t/x is not a table timeline-archive handles\n");
    String why = Hudi1WrittenFigure.unavailable(refused, "file:///t/x");
    assertThat(why)
        .isEqualTo("exit 3: TABLE is not a table timeline-archive handles: hoodie.table.version=8");
    assertThat(
            Hudi1WrittenFigure.unavailable(
                new ChildJvm.Outcome(1, 1, 1, "", "\nException in thread main\n"), "file:///t"))
        .isEqualTo("exit 1: Exception in thread main");
    Hudi1WrittenFigure.Measured m =
        new Hudi1WrittenFigure.Measured(
            new Hudi1WrittenTables.Table(tmp, 1_000),
            why,
            0,
            2_000_000_000L,
            100_000_000L,
            0,
            3_000_000_000L,
            50_000_000L,
            0,
            12_345,
            0,
            900,
            1,
            "",
            "runs",
            "ours did not run");

    List<Row> rows = Hudi1WrittenFigure.rows(m);

    assertThat(rows).hasSize(3);
    assertThat(rows)
        .allSatisfy(
            r -> {
              assertThat(r.figure()).startsWith("P1-1x");
              assertThat(r.ours()).isEqualTo("not available (" + why + ")");
              assertThat(r.met()).isNull();
              assertThat(r.ratioValue()).isNaN();
            });
    assertThat(rows.get(0).comparator()).startsWith("Hudi 1.0.1: 2,000 ms");
  }

  /**
   * P1-1x end to end on a small table, with the CLI jar of this checkout (when built: archive-cli
   * is not among archive-bench's dependencies). Until our CLI archives 1.x tables, our side is "not
   * available (exit 3: ...)" and Hudi's and the floor's numbers stand; once it does, ours is a
   * number and both archivers left the same active timeline.
   */
  @Test
  void p1OnA1xTableMeasuresHudiAndTheFloorAndOursOrSaysWhyNot() throws Exception {
    Path cliJar = HudiWrittenFigure.defaultCliJar(HudiWrittenTables.benchTarget());
    assumeTrue(
        Files.isExecutable(cliJar.resolveSibling("timeline-archive")),
        "no CLI jar at " + cliJar + " (./mvnw -pl archive-cli -am package -DskipTests)");
    Path table = lengthened("p1");
    Hudi1WrittenFigure figure = new Hudi1WrittenFigure(tmp.resolve("work"), cliJar, hudi1);

    Hudi1WrittenFigure.Measured m =
        figure.measure(new Hudi1WrittenTables.Table(table, Hudi1WrittenTables.count(table)), 1);
    List<Row> rows = Hudi1WrittenFigure.rows(m);

    assertThat(m.hudi()).isPositive();
    assertThat(m.floor()).isPositive();
    assertThat(m.hudiArchivedFiles()).isPositive();
    assertThat(m.hudiBytes()).isPositive();
    assertThat(rows).extracting(Row::figure).allMatch(f -> f.startsWith("P1-1x"));
    if (m.oursUnavailable() != null) {
      assertThat(m.oursUnavailable()).startsWith("exit 3: TABLE is not a table");
      assertThat(rows).allMatch(r -> r.ours().startsWith("not available (exit 3: "));
    } else {
      assertThat(rows).allMatch(r -> r.ratioValue() > 0 && r.met() != null);
      assertThat(m.sameTimeline()).startsWith("same active timeline left by both");
    }
  }

  /**
   * The rows once our CLI archives 1.x tables, with a stand-in for it: a launcher that has Hudi
   * 1.0.1's archiver archive the table and prints a report as ours does with {@code --json}. Both
   * sides then left the same active timeline and history, Hudi 1.0.1 reads both, and every row has
   * a number.
   */
  @Test
  void onceOurCliArchives1xTablesTheRowsHaveNumbers() throws Exception {
    Path cliJar = Files.createFile(Files.createDirectories(tmp.resolve("cli")).resolve("x.jar"));
    List<String> hudiSettings = new ArrayList<>();
    Hudi1Side.SETTINGS.forEach((k, v) -> hudiSettings.add(k + "=" + v));
    Path launcher = cliJar.resolveSibling("timeline-archive");
    Files.writeString(
        launcher,
        String.join(
            "\n",
            "#!/bin/bash",
            "set -e",
            "for a; do table=$a; done",
            "\"$JAVA_HOME/bin/java\" -cp '"
                + hudi1.classPath()
                + "' "
                + Hudi1Side.ARCHIVER
                + " \"${table#file://}\" "
                + HudiWriter.TABLE_NAME
                + " "
                + String.join(" ", hudiSettings)
                + " >&2",
            "echo '{\"filesDeleted\": 7, \"phasesMillis\": {\"LIST\": 1.0, \"WRITE\": 2.0}}'",
            ""));
    assertThat(launcher.toFile().setExecutable(true)).isTrue();
    Path table = lengthened("stand-in");
    Hudi1WrittenFigure figure = new Hudi1WrittenFigure(tmp.resolve("work"), cliJar, hudi1);

    Hudi1WrittenFigure.Measured m =
        figure.measure(new Hudi1WrittenTables.Table(table, Hudi1WrittenTables.count(table)), 1);
    List<Row> rows = Hudi1WrittenFigure.rows(m);

    assertThat(m.oursUnavailable()).isNull();
    assertThat(m.ours()).isPositive();
    assertThat(m.ourArchivedFiles()).isEqualTo(7);
    assertThat(m.phases()).isEqualTo("LIST 1, WRITE 2");
    assertThat(m.ourBytes()).isPositive();
    assertThat(m.sameTimeline())
        .startsWith("same active timeline left by both")
        .containsPattern("Hudi 1.0.1 reads ([1-9]\\d*) archived instants in ours, \\1 in its own");
    assertThat(rows).hasSize(3).allMatch(r -> r.ratioValue() > 0 && r.met() != null);
    assertThat(rows.get(0).ours()).doesNotContain("not available");
  }

  /** A copy of the written table lengthened to {@link #SIZE} instant files. */
  private Path lengthened(String name) throws Exception {
    Path table = tmp.resolve(name);
    Tables.copy(written, table);
    Hudi1TimelineLengthener.lengthen(table, SIZE);
    return table;
  }

  /** How far back {@code ref} is from {@code own}: "commit -2 requested" etc. */
  private static String relative(String own, String ref) {
    String[] o = own.split(" ");
    String[] r = ref.split(" ");
    int ownRank = Integer.parseInt(o[1]);
    int refRank = Integer.parseInt(r[1]);
    // ranks count within a kind; a reference to the other kind is relative to the same copy's
    return r[0] + " " + (refRank - ownRank) + " " + r[2] + " (from a " + o[0] + ")";
  }
}
