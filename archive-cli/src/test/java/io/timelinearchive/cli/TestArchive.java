package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.timeline.Action;
import io.timelinearchive.timeline.State;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestArchive {
  @TempDir Path table;

  private static String[] args(String first, String second, List<String> rest, String... more) {
    List<String> all = new ArrayList<>(List.of(first, second));
    all.addAll(rest);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  private static List<String> lines(JsonNode instants) {
    List<String> lines = new ArrayList<>();
    for (JsonNode i : instants) {
      lines.add(
          i.get("time").asText() + " " + i.get("action").asText() + " " + i.get("state").asText());
    }
    return lines;
  }

  @Test
  void textReportsCountsTheArchiveFileAndTheBarrier() throws Exception {
    SampleTable.Written written = Tables.write(table, Tables.SMALL);

    Cli.Run run = Cli.ok(args("archive", table.toString(), Tables.AGGRESSIVE));

    int left = Tables.activeInstants(table).size();
    assertThat(run.outLines())
        .startsWith(
            "instant files before: " + written.files().size() + ", after: " + left,
            "archived "
                + (written.files().size() - left)
                + " instant file(s) of 13 instant(s): {clean=3, commit=10}",
            "wrote .commits_.archive.1_1-0-1: 4 block(s), "
                + Files.size(Tables.archiveFile(table, 1))
                + " bytes",
            "selection stopped: keeping min commits (2)");
    assertThat(run.outLines().get(run.outLines().size() - 1)).startsWith("requests: {list=");
  }

  @Test
  void jsonMatchesWhatLeftTheActiveTimelineAndShowArchivedReadsItBack() throws Exception {
    SampleTable.Written written = Tables.write(table, Tables.SMALL);

    JsonNode result = Cli.ok(args("archive", table.toString(), Tables.AGGRESSIVE, "--json")).json();

    List<TimelineInstant> active = Tables.activeInstants(table);
    Set<TimelineInstant> gone = new HashSet<>(written.files().values());
    active.forEach(gone::remove);
    List<String> archived = lines(result.get("instantFiles"));
    assertThat(archived)
        .containsExactlyElementsOf(
            gone.stream().sorted(TimelineInstant.ORDER).map(Tables::line).toList());
    assertThat(result.get("activeBefore").asInt()).isEqualTo(written.files().size());
    assertThat(result.get("activeAfter").asInt()).isEqualTo(active.size());
    assertThat(result.get("filesDeleted").asInt()).isEqualTo(archived.size());
    assertThat(result.get("instantsByAction").get("commit").asInt()).isEqualTo(10);
    assertThat(result.get("instantsByAction").get("clean").asInt()).isEqualTo(3);
    assertThat(result.get("recovered")).isEmpty();
    JsonNode file = result.get("archiveFilesWritten").get(0);
    assertThat(file.get("name").asText()).isEqualTo(".commits_.archive.1_1-0-1");
    assertThat(file.get("appended").asBoolean()).isFalse();
    assertThat(file.get("bytes").asLong()).isEqualTo(Files.size(Tables.archiveFile(table, 1)));
    assertThat(result.get("barrier").get("kind").asText()).isNotEmpty();
    assertThat(result.get("barrier").get("message").asText()).isEqualTo("keeping min commits (2)");
    assertThat(result.get("durationMillis").asLong()).isNotNegative();

    JsonNode shown = Cli.ok("show", "archived", table.toString(), "--json").json();
    assertThat(lines(shown.get("instantFiles"))).containsExactlyElementsOf(archived);
    assertThat(shown.get("instantFiles").size()).isEqualTo(archived.size());
  }

  @Test
  void aSecondRunArchivesNothingAndChangesNothing() throws Exception {
    Tables.write(table, Tables.SMALL);
    Cli.ok(args("archive", table.toString(), Tables.AGGRESSIVE));
    SortedMap<String, String> before = Tables.snapshot(table);

    JsonNode second = Cli.ok(args("archive", table.toString(), Tables.AGGRESSIVE, "--json")).json();

    assertThat(second.get("instantFiles")).isEmpty();
    assertThat(second.get("archiveFilesWritten")).isEmpty();
    assertThat(second.get("filesDeleted").asInt()).isZero();
    assertThat(second.get("activeAfter").asInt()).isEqualTo(second.get("activeBefore").asInt());
    assertThat(Tables.snapshot(table)).isEqualTo(before);

    Cli.Run text = Cli.ok(args("archive", table.toString(), Tables.AGGRESSIVE));
    assertThat(text.outLines()).contains("archived 0 instant file(s) of 0 instant(s)");
  }

  @Test
  void dryRunAndPlanChangeNothingAndPredictTheRun() throws Exception {
    Tables.write(table, Tables.SMALL);
    SortedMap<String, String> before = Tables.snapshot(table);

    Cli.Run dryRun = Cli.ok(args("archive", table.toString(), Tables.AGGRESSIVE, "--dry-run"));
    JsonNode dryRunJson =
        Cli.ok(args("archive", table.toString(), Tables.AGGRESSIVE, "--dry-run", "--json")).json();
    Cli.Run plan = Cli.ok(args("plan", table.toString(), Tables.AGGRESSIVE));
    JsonNode planJson = Cli.ok(args("plan", table.toString(), Tables.AGGRESSIVE, "--json")).json();

    assertThat(Tables.snapshot(table)).isEqualTo(before);
    assertThat(dryRun.outLines()).last().isEqualTo("dry run: nothing was changed");
    assertThat(dryRunJson.get("dryRun").asBoolean()).isTrue();
    assertThat(planJson.has("dryRun")).as("no dryRun: false noise").isFalse();
    assertThat(plan.outLines()).doesNotContain("dry run: nothing was changed");

    List<String> listed =
        Cli.ok(args("plan", table.toString(), Tables.AGGRESSIVE, "--list")).outLines();
    List<String> firstTwo =
        Cli.ok(args("plan", table.toString(), Tables.AGGRESSIVE, "--limit", "2")).outLines();
    JsonNode result = Cli.ok(args("archive", table.toString(), Tables.AGGRESSIVE, "--json")).json();
    List<String> archived = lines(result.get("instantFiles"));
    assertThat(lines(planJson.get("instantFiles"))).containsExactlyElementsOf(archived);
    assertThat(lines(dryRunJson.get("instantFiles"))).containsExactlyElementsOf(archived);
    assertThat(planJson.get("instants").asInt()).isEqualTo(13);
    assertThat(result.get("instants").asInt())
        .as("instants: the same count in archive")
        .isEqualTo(13);
    assertThat(planJson.get("instantsByAction").get("commit").asInt()).isEqualTo(10);
    assertThat(plan.outLines())
        .startsWith(archived.size() + " instant file(s) of 13 instant(s) would be archived")
        .doesNotContainAnyElementsOf(archived)
        .endsWith("--list prints every instant file, --limit N the first N");
    assertThat(listed.subList(listed.size() - archived.size(), listed.size()))
        .containsExactlyElementsOf(archived);
    assertThat(firstTwo)
        .containsSubsequence(
            archived.get(0),
            archived.get(1),
            "listed 2 of "
                + archived.size()
                + "; --list prints every instant file, --limit N the first N");
    assertThat(listed)
        .contains(
            "by action: {clean=3, commit=10}",
            "retention: keep 2 to 4 completed commits",
            "selection stopped (commits): keeping min commits (2)",
            "selection stopped (clean): keeping min clean instants (2)");
  }

  @Test
  void minAndMaxAreApplied() throws Exception {
    SampleTable.Written written = Tables.write(table, Tables.SMALL);

    JsonNode plan =
        Cli.ok(
                "plan",
                table.toString(),
                "--min",
                "3",
                "--max",
                "5",
                "--conf",
                "hoodie.cleaner.commits.retained=1",
                "--json")
            .json();
    assertThat(plan.get("minCommits").asInt()).isEqualTo(3);
    assertThat(plan.get("maxCommits").asInt()).isEqualTo(5);

    Cli.ok(
        "archive",
        table.toString(),
        "--min",
        "3",
        "--max",
        "5",
        "--conf",
        "hoodie.cleaner.commits.retained=1");

    List<TimelineInstant> active = Tables.activeInstants(table);
    assertThat(completed(active, Action.COMMIT)).isEqualTo(3);
    // 5 cleans are not more than max: none archived.
    assertThat(completed(active, Action.CLEAN)).isEqualTo(5);
    assertThat(completed(written.files().values().stream().toList(), Action.COMMIT)).isEqualTo(12);
  }

  private static long completed(List<TimelineInstant> instants, Action action) {
    return instants.stream()
        .filter(i -> i.action() == action && i.state() == State.COMPLETED)
        .count();
  }

  @Test
  void batchSetsTheRecordsPerBlock() throws Exception {
    Tables.write(table, Tables.SMALL);

    JsonNode result =
        Cli.ok(args("archive", table.toString(), Tables.AGGRESSIVE, "--batch", "7", "--json"))
            .json();

    int entries = result.get("instantFiles").size();
    assertThat(entries).isEqualTo(39);
    assertThat(result.get("archiveFilesWritten").get(0).get("blocks").asInt()).isEqualTo(6);
    JsonNode file =
        Cli.ok("show", "archived", "--json", table.toString()).json().get("archiveFiles");
    assertThat(file.get(0).get("blocks").asInt()).isEqualTo(6);
    assertThat(file.get(0).get("entries").asInt()).isEqualTo(39);
  }

  @Test
  void confPassesAnySetting() throws Exception {
    Tables.write(table, Tables.SMALL);

    JsonNode result =
        Cli.ok(
                args(
                    "archive",
                    table.toString(),
                    Tables.AGGRESSIVE,
                    "--conf",
                    "archive.max-instants-per-run=2",
                    "--conf",
                    "hoodie.commits.archival.batch=1",
                    "--json"))
            .json();

    JsonNode byAction = result.get("instantsByAction");
    int instants = 0;
    for (JsonNode n : byAction) {
      instants += n.asInt();
    }
    assertThat(instants).isEqualTo(2);
    assertThat(result.get("archiveFilesWritten").get(0).get("blocks").asInt())
        .isEqualTo(result.get("instantFiles").size());
  }

  @Test
  void optionsOverrideTheSameKeyGivenWithConf() throws Exception {
    Tables.write(table, Tables.SMALL);

    JsonNode plan =
        Cli.ok(
                "plan",
                table.toString(),
                "--conf",
                "hoodie.keep.min.commits=2",
                "--conf",
                "hoodie.keep.max.commits=4",
                "--conf",
                "hoodie.cleaner.commits.retained=1",
                "--max",
                "6",
                "--json")
            .json();

    assertThat(plan.get("minCommits").asInt()).isEqualTo(2);
    assertThat(plan.get("maxCommits").asInt()).isEqualTo(6);
  }

  @Test
  void archivesATableOnTheMemoryStorage() throws Exception {
    String uri = Tables.memoryUri();
    SampleTable.Written written = Tables.write(uri, Tables.SMALL);

    JsonNode result = Cli.ok(args("archive", uri, Tables.AGGRESSIVE, "--json")).json();
    JsonNode shown = Cli.ok("show", "archived", uri, "--json").json();

    assertThat(result.get("instantFiles")).hasSize(39);
    assertThat(lines(shown.get("instantFiles")))
        .containsExactlyElementsOf(lines(result.get("instantFiles")));
    assertThat(Cli.ok("--json", "show", "active", uri).json().get("instantFiles").size())
        .isEqualTo(written.files().size() - 39);
  }

  @Test
  void malformedNamesAreReportedAndLeftAlone() throws Exception {
    Tables.write(table, Tables.SMALL);
    Path bogus = Files.write(Tables.meta(table).resolve("20260101000000000.bogus"), new byte[] {1});
    Path abc = Files.write(Tables.meta(table).resolve("abc.commit"), new byte[] {2});

    Cli.Run run = Cli.ok(args("archive", table.toString(), Tables.AGGRESSIVE));

    assertThat(bogus).exists().hasBinaryContent(new byte[] {1});
    assertThat(abc).exists().hasBinaryContent(new byte[] {2});
    assertThat(run.outLines())
        .contains(
            "warning: left alone: file://"
                + Tables.meta(table).toAbsolutePath()
                + "/20260101000000000.bogus (unknown action 'bogus')");
    try (Stream<Path> archived = Files.list(Tables.meta(table).resolve("archived"))) {
      assertThat(archived.map(p -> p.getFileName().toString()))
          .containsExactly(".commits_.archive.1_1-0-1");
    }
  }
}
