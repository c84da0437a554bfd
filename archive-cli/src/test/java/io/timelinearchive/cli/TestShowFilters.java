package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestShowFilters {
  @TempDir Path table;

  @BeforeEach
  void archiveSome() throws Exception {
    Tables.write(table, Tables.SMALL);
    Cli.ok(
        "archive",
        table.toString(),
        "--min",
        "2",
        "--max",
        "4",
        "--conf",
        "hoodie.cleaner.commits.retained=1");
  }

  @Test
  void actionAndStateKeepOnlyTheMatchingInstantFiles() {
    for (String which : List.of("active", "archived")) {
      List<String> all = Cli.ok("show", which, table.toString()).outLines();
      List<String> cleans =
          Cli.ok("show", which, table.toString(), "--action", "clean", "--state", "completed")
              .outLines();

      List<String> expected =
          all.subList(0, all.size() - 1).stream()
              .filter(l -> l.endsWith(" clean COMPLETED"))
              .toList();
      assertThat(expected).as(which).isNotEmpty();
      assertThat(cleans.subList(0, cleans.size() - 1)).containsExactlyElementsOf(expected);
      assertThat(cleans.get(cleans.size() - 1)).startsWith(expected.size() + " instant file(s) in");
    }
  }

  @Test
  void limitListsTheOldestAndTheLastLineGivesTheTotal() {
    for (String which : List.of("active", "archived")) {
      List<String> all = Cli.ok("show", which, table.toString()).outLines();
      Cli.Run limited = Cli.ok("show", which, table.toString(), "--limit", "3");
      JsonNode json = Cli.ok("--json", "show", which, table.toString(), "--limit", "3").json();

      assertThat(limited.outLines()).startsWith(all.subList(0, 3).toArray(String[]::new));
      assertThat(limited.outLines()).hasSize(4);
      assertThat(limited.outLines().get(3)).startsWith("listed 3 of " + (all.size() - 1) + " ");
      assertThat(json.get("instantFiles")).hasSize(3);
      assertThat(json.get("instantFilesMatched").asInt()).isEqualTo(all.size() - 1);
    }
  }

  @Test
  void aMisspeltActionOrStateIsAUsageError() {
    Cli.Run action = Cli.run("show", "active", table.toString(), "--action", "comit");
    Cli.Run state = Cli.run("show", "archived", table.toString(), "--state", "done");

    assertThat(action.exitCode()).isEqualTo(2);
    assertThat(action.errLines()).first().isEqualTo("error: --action comit is not a Hudi action");
    assertThat(state.exitCode()).isEqualTo(2);
    assertThat(state.errLines())
        .first()
        .isEqualTo("error: --state done is not one of [requested, inflight, completed]");
  }
}
