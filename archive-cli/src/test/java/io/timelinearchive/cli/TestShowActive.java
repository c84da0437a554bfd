package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestShowActive {
  @TempDir Path table;

  @Test
  void printsOneLinePerInstantFileInTimelineOrderThenTheCount() throws Exception {
    SampleTable.Written written = Tables.write(table, Tables.SMALL);

    Cli.Run run = Cli.ok("show", "active", table.toString());

    List<String> expected = new ArrayList<>();
    written.files().values().stream()
        .sorted(TimelineInstant.ORDER)
        .map(Tables::line)
        .forEach(expected::add);
    expected.add(written.files().size() + " instant file(s) in the active timeline");
    assertThat(run.outLines()).containsExactlyElementsOf(expected);
    assertThat(run.err()).isEmpty();
    // A commit's inflight file is T.inflight: the line still names the action.
    String inflight =
        written.files().keySet().stream()
            .filter(n -> n.matches("\\d+\\.inflight"))
            .findFirst()
            .get();
    assertThat(run.outLines()).contains(inflight.replace(".inflight", "") + " commit INFLIGHT");
  }

  @Test
  void jsonListsTimeActionAndStateOfEachFile() throws Exception {
    SampleTable.Written written = Tables.write(table, Tables.SMALL);

    JsonNode json = Cli.ok("--json", "show", "active", table.toString()).json();

    assertThat(json.get("table").asText()).isEqualTo("file://" + table.toAbsolutePath());
    assertThat(json.get("instantFiles").size()).isEqualTo(written.files().size());
    List<String> lines = new ArrayList<>();
    for (JsonNode i : json.get("instantFiles")) {
      lines.add(
          i.get("time").asText() + " " + i.get("action").asText() + " " + i.get("state").asText());
    }
    assertThat(lines)
        .containsExactlyElementsOf(
            written.files().values().stream()
                .sorted(TimelineInstant.ORDER)
                .map(Tables::line)
                .toList());
    assertThat(json.get("malformed")).isEmpty();
  }

  @Test
  void reportsMalformedNamesOnStandardErrorAndKeepsThemOutOfTheCount() throws Exception {
    SampleTable.Written written = Tables.write(table, Tables.SMALL);
    Path meta = Tables.meta(table);
    Files.write(meta.resolve("20260101000000000.bogus"), new byte[] {1});
    Files.write(meta.resolve("abc.commit"), new byte[] {2});
    Files.write(meta.resolve("x1.deltacommit.requested"), new byte[0]);
    // Not instants at all: not reported.
    Files.write(meta.resolve("notes.txt"), new byte[0]);
    Files.write(meta.resolve(".20260101000000000.commit.crc"), new byte[0]);

    Cli.Run run = Cli.ok("show", "active", table.toString());

    assertThat(run.outLines())
        .hasSize(written.files().size() + 1)
        .last()
        .isEqualTo(written.files().size() + " instant file(s) in the active timeline");
    assertThat(run.errLines())
        .containsExactly(
            "warning: not an instant, left alone: file://"
                + meta.toAbsolutePath()
                + "/20260101000000000.bogus (unknown action 'bogus')",
            "warning: not an instant, left alone: file://"
                + meta.toAbsolutePath()
                + "/abc.commit (instant time 'abc' is not a number)",
            "warning: not an instant, left alone: file://"
                + meta.toAbsolutePath()
                + "/x1.deltacommit.requested (instant time 'x1' is not a number)");

    JsonNode json = Cli.ok("show", "active", "--json", table.toString()).json();
    assertThat(json.get("instantFiles").size()).isEqualTo(written.files().size());
    assertThat(json.get("malformed").findValuesAsText("name"))
        .containsExactly("20260101000000000.bogus", "abc.commit", "x1.deltacommit.requested");
    assertThat(json.get("malformed").get(0).get("reason").asText())
        .isEqualTo("unknown action 'bogus'");
  }

  @Test
  void readsATableOnTheMemoryStorage() throws Exception {
    String uri = Tables.memoryUri();
    SampleTable.Written written = Tables.write(uri, Tables.SMALL);

    Cli.Run run = Cli.ok("show", "active", uri);

    assertThat(run.outLines())
        .hasSize(written.files().size() + 1)
        .last()
        .isEqualTo(written.files().size() + " instant file(s) in the active timeline");
  }

  @Test
  void aFolderWithoutHoodiePropertiesIsBadInputNamedOnOneLine() throws Exception {
    Files.createDirectories(Tables.meta(table));

    Cli.Run run = Cli.run("show", "active", table.toString());

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines())
        .containsExactly(
            "error: not a Hudi table: file://"
                + table.toAbsolutePath()
                + "/.hoodie/hoodie.properties does not exist");
  }

  @Test
  void aMissingTableIsBadInputNamedOnOneLine() {
    Cli.Run run = Cli.run("show", "active", table.resolve("nope").toString());

    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.errLines())
        .containsExactly(
            "error: not a Hudi table: file://"
                + table.toAbsolutePath()
                + "/nope/.hoodie/hoodie.properties does not exist");

    String uri = Tables.memoryUri();
    Cli.Run memory = Cli.run("show", "archived", uri);
    assertThat(memory.exitCode()).isEqualTo(3);
    assertThat(memory.errLines())
        .containsExactly(
            "error: not a Hudi table: " + uri + "/.hoodie/hoodie.properties does not exist");
  }
}
