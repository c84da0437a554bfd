package io.timelinearchive.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tiny run of the figures that need no server or child JVM: each gives a sane row. */
class TestHarness {
  @TempDir Path work;

  @Test
  void archivalAndReadFiguresCompareWithHudiOnTheSameTable() throws Exception {
    ArchivalFigure p1 = new ArchivalFigure(work, new Templates(work.resolve("templates")));
    Row archival = p1.measure(400, 1);

    assertThat(archival.figure()).startsWith("P1");
    assertThat(archival.note()).startsWith("same active timeline left by both");
    assertThat(archival.ratioValue()).isPositive();
    assertThat(archival.met()).isNotNull();
    Path hudiArchived = p1.hudiArchivedTable();
    assertThat(hudiArchived.resolve(".hoodie/archived")).isNotEmptyDirectory();

    List<Row> read = new ReadFigure(1).measure(hudiArchived);
    assertThat(read).extracting(Row::figure).allMatch(f -> f.startsWith("P4"));
    assertThat(read).hasSize(2).allMatch(r -> r.ratioValue() > 0 && r.met() != null);
    // both readers found every entry Hudi wrote
    assertThat(read.get(0).size())
        .startsWith(archival.size().replaceAll(".*\\((\\S+) archived\\)", "$1"));
  }

  @Test
  void selectionFigureReportsGrowth() throws Exception {
    List<Row> rows = new SelectionFigure(1, 20_000).measure(new int[] {1_000, 10_000});

    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).ratioValue()).isNaN();
    assertThat(rows.get(1).ratioValue()).isPositive();
    assertThat(rows.get(1).size()).startsWith("10,000 instants");
  }

  @Test
  void resultsKeepTheLatestRunOfEveryFigure() throws Exception {
    Results.Machine machine = Results.Machine.current();
    ZonedDateTime first = ZonedDateTime.of(2026, 11, 29, 22, 0, 0, 0, ZoneOffset.UTC);
    Row p8 = new Row("P8 test", "1 \"thing\"", "1 ms", "—", "2.00×", "≥ 2×", true, "a|b", 2.0);
    Row p9 = new Row("P9 test", "2 things", "x", "—", "—", "none", null, "n", Double.NaN);
    Path out = work.resolve("results");
    Results.write(
        out,
        List.of(
            new Results.FigureRun("P8", first, machine, List.of(p8)),
            new Results.FigureRun("P9", first, machine, List.of(p9))),
        false);
    Row p9again = new Row("P9 test", "2 things", "y", "—", "—", "none", false, "m", Double.NaN);
    String md =
        Results.write(
            out,
            List.of(new Results.FigureRun("P9", first.plusHours(1), machine, List.of(p9again))),
            false);

    assertThat(md)
        .contains("| P8 test | 1 \"thing\" | 1 ms | — | 2.00× | ≥ 2× | met |")
        .contains("| P9 test | 2 things | y | — | — | none | not met |")
        .doesNotContain("| x |")
        .contains("- P8: 2026-11-29T22:00:00Z")
        .contains("- P9: 2026-11-29T23:00:00Z");
    assertThat(Files.readString(out.resolve("latest.md"))).isEqualTo(md);
    String json = Files.readString(out.resolve("latest.json"));
    assertThat(json)
        .contains("\"cores\" : " + machine.cores())
        .contains("\"size\" : \"1 \\\"thing\\\"\"")
        .contains("\"ratioValue\" : 2.0")
        .contains("\"ratioValue\" : null")
        .contains("\"met\" : false");
    assertThat(Results.load(out))
        .extracting(Results.FigureRun::rows)
        .containsExactly(List.of(p8), List.of(p9again));
  }
}
