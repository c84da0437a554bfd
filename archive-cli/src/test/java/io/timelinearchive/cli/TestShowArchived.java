package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reads one table archived once, in four blocks of at most 10 entries; nothing here writes. */
class TestShowArchived {
  @TempDir static Path table;
  private static List<String> archived;
  private static final Map<String, Long> originalSizes = new HashMap<>();

  @BeforeAll
  static void archiveOnce() throws Exception {
    Tables.write(table, Tables.SMALL);
    try (Stream<Path> files = Files.list(Tables.meta(table))) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        originalSizes.put(p.getFileName().toString(), Files.size(p));
      }
    }
    List<String> args = new ArrayList<>(List.of("archive", table.toString(), "--json"));
    args.addAll(Tables.AGGRESSIVE);
    archived = lines(Cli.ok(args.toArray(String[]::new)).json().get("instantFiles"));
    assertThat(archived).hasSize(39);
  }

  private static List<String> lines(JsonNode instants) {
    List<String> lines = new ArrayList<>();
    for (JsonNode i : instants) {
      lines.add(
          i.get("time").asText() + " " + i.get("action").asText() + " " + i.get("state").asText());
    }
    return lines;
  }

  private static String time(int index) {
    return archived.get(index).split(" ")[0];
  }

  @Test
  void printsOneLinePerArchivedInstantFileThenTheCount() {
    Cli.Run run = Cli.ok("show", "archived", table.toString());

    List<String> expected = new ArrayList<>(archived);
    expected.add("39 instant file(s) in the archive");
    assertThat(run.outLines()).containsExactlyElementsOf(expected);
    assertThat(run.err()).isEmpty();
  }

  @Test
  void jsonNamesEachInstantAndEachArchiveFile() {
    JsonNode json = Cli.ok("--json", "show", "archived", table.toString()).json();

    assertThat(lines(json.get("instantFiles"))).containsExactlyElementsOf(archived);
    assertThat(json.get("instantFiles").size()).isEqualTo(39);
    JsonNode first = json.get("instantFiles").get(0);
    assertThat(first.get("stateTransitionTime").asText()).matches("\\d{17}");
    assertThat(first.has("details")).isFalse();
    assertThat(json.get("archiveFiles")).hasSize(1);
    JsonNode file = json.get("archiveFiles").get(0);
    assertThat(file.get("name").asText()).isEqualTo(".commits_.archive.1_1-0-1");
    assertThat(file.get("version").asInt()).isEqualTo(1);
    assertThat(file.get("blocks").asInt()).isEqualTo(4);
    assertThat(file.get("entries").asInt()).isEqualTo(39);
    assertThat(file.get("truncatedTail").asBoolean()).isFalse();
  }

  @Test
  void fromAndToAreInclusiveBounds() {
    String from = time(3);
    String to = time(12);
    List<String> between =
        archived.stream()
            .filter(l -> l.split(" ")[0].compareTo(from) >= 0 && l.split(" ")[0].compareTo(to) <= 0)
            .toList();
    assertThat(between).hasSizeGreaterThan(3).hasSizeLessThan(archived.size());

    Cli.Run run = Cli.ok("show", "archived", table.toString(), "--from", from, "--to", to);
    assertThat(run.outLines())
        .containsExactlyElementsOf(
            concat(between, between.size() + " instant file(s) in the archive"));

    JsonNode json = Cli.ok("show", "archived", table.toString(), "--from", from, "--json").json();
    assertThat(lines(json.get("instantFiles")))
        .containsExactlyElementsOf(
            archived.stream().filter(l -> l.split(" ")[0].compareTo(from) >= 0).toList());

    JsonNode upTo = Cli.ok("show", "archived", table.toString(), "--to", to, "--json").json();
    assertThat(lines(upTo.get("instantFiles")))
        .containsExactlyElementsOf(
            archived.stream().filter(l -> l.split(" ")[0].compareTo(to) <= 0).toList());
  }

  private static List<String> concat(List<String> lines, String last) {
    List<String> all = new ArrayList<>(lines);
    all.add(last);
    return all;
  }

  @Test
  void detailsInJsonAreObjectsWithTheArchivedMetadata() {
    JsonNode json = Cli.ok("show", "archived", table.toString(), "--details", "--json").json();

    assertThat(json.get("instantFiles").size()).isEqualTo(39);
    boolean sawCommit = false;
    boolean sawClean = false;
    for (JsonNode i : json.get("instantFiles")) {
      JsonNode details = i.get("details");
      assertThat(details.isObject()).as("details of %s", i).isTrue();
      assertThat(details.get("commitTime").asText()).isEqualTo(i.get("time").asText());
      assertThat(details.get("actionType").asText()).isEqualTo(i.get("action").asText());
      assertThat(details.get("actionState").asText()).isEqualTo(i.get("state").asText());
      assertThat(details.get("stateTransitionTime").asText())
          .isEqualTo(i.get("stateTransitionTime").asText());
      assertThat(details.has("timelineArchiveRawContent")).isFalse();
      String fileName = fileName(i);
      assertThat(i.get("rawContentBytes").isIntegralNumber()).as("%s", i).isTrue();
      assertThat(i.get("rawContentBytes").asLong())
          .as("raw bytes of %s", fileName)
          .isEqualTo(originalSizes.get(fileName));
      if (i.get("action").asText().equals("commit")
          && i.get("state").asText().equals("COMPLETED")) {
        sawCommit = true;
        JsonNode stats = details.get("hoodieCommitMetadata").get("partitionToWriteStats");
        assertThat(stats.isObject()).isTrue();
        JsonNode stat = stats.elements().next().get(0);
        assertThat(stat.get("numWrites").isIntegralNumber()).isTrue();
        assertThat(stat.get("path").asText()).endsWith(".parquet");
      }
      if (i.get("action").asText().equals("clean") && i.get("state").asText().equals("COMPLETED")) {
        sawClean = true;
        assertThat(details.get("hoodieCleanMetadata").get("startCleanTime").asText())
            .isEqualTo(i.get("time").asText());
        assertThat(details.get("hoodieCleanMetadata").get("partitionMetadata").isObject()).isTrue();
      }
    }
    assertThat(sawCommit).isTrue();
    assertThat(sawClean).isTrue();
  }

  private static String fileName(JsonNode i) {
    String time = i.get("time").asText();
    String action = i.get("action").asText();
    return switch (i.get("state").asText()) {
      case "COMPLETED" -> time + "." + action;
      case "INFLIGHT" ->
          action.equals("commit") ? time + ".inflight" : time + "." + action + ".inflight";
      default -> time + "." + action + ".requested";
    };
  }

  @Test
  void detailsInTextFollowEachLineAsOneLineOfJson() {
    Cli.Run run = Cli.ok("show", "archived", table.toString(), "--details", "--to", time(2));

    List<String> out = run.outLines();
    assertThat(out).hasSize(2 * 3 + 1).last().isEqualTo("3 instant file(s) in the archive");
    for (int i = 0; i < 3; i++) {
      assertThat(out.get(2 * i)).isEqualTo(archived.get(i));
      assertThat(out.get(2 * i + 1)).startsWith("  {");
      JsonNode details = Cli.parse(out.get(2 * i + 1));
      assertThat(details.get("commitTime").asText()).isEqualTo(time(i));
    }
  }

  @Test
  void aRangeEndingBeforeItStartsIsAUsageError() {
    Cli.Run run = Cli.run("show", "archived", table.toString(), "--from", time(5), "--to", time(0));

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines())
        .containsExactly("error: invalid time range: from " + time(5) + " is after to " + time(0));
    assertThat(run.out()).isEmpty();
  }
}
