package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestRetentionRules {
  @TempDir Path table;

  private String[] args(String command, String... more) {
    List<String> all = new ArrayList<>(List.of(command, table.toString()));
    all.addAll(Tables.AGGRESSIVE);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  @Test
  void planShowsTheMinimumAgeAndWhatItKeeps() throws Exception {
    Tables.write(table, Tables.SMALL);

    // the sample table's instants are from January 2026: a century keeps them all
    Cli.Run run = Cli.ok(args("plan", "--min-age", "36500d"));

    assertThat(run.outLines())
        .contains("0 instant file(s) of 0 instant(s) would be archived")
        .anySatisfy(
            l ->
                assertThat(l)
                    .startsWith("rule: retain min-age 36500d: nothing younger than ")
                    .endsWith(" is archived"))
        .anySatisfy(
            l -> assertThat(l).startsWith("selection stopped (commits): retain min-age 36500d"));
  }

  @Test
  void aShortMinimumAgeChangesNothingForOldInstants() throws Exception {
    Tables.write(table, Tables.SMALL);

    JsonNode without = Cli.ok(args("plan", "--json")).json();
    JsonNode with = Cli.ok(args("plan", "--json", "--min-age", "1d")).json();

    assertThat(with.get("instantFiles")).isEqualTo(without.get("instantFiles"));
    assertThat(with.get("rules").get(0).asText()).startsWith("retain min-age 1d: ");
    assertThat(without.get("rules")).isEmpty();
  }

  @Test
  void theCapBoundsPlanAndRunAndTheRestWaits() throws Exception {
    Tables.write(table, Tables.SMALL);

    Cli.Run plan = Cli.ok(args("plan", "--max-per-run", "5"));
    JsonNode first =
        Cli.ok(args("archive", "--json", "--conf", "archive.max-instants-per-run=5")).json();
    JsonNode second = Cli.ok(args("archive", "--json", "--max-per-run", "5")).json();

    assertThat(plan.outLines())
        .contains(
            "rule: per-run cap 5: at most 5 instant(s) per run, the rest wait for the next run")
        .anySatisfy(l -> assertThat(l).endsWith(" of 5 instant(s) would be archived"));
    for (JsonNode run : List.of(first, second)) {
      Set<String> keys = new HashSet<>();
      run.get("instantFiles").forEach(i -> keys.add(i.get("time").asText()));
      assertThat(keys).hasSize(5);
      List<String> kinds = new ArrayList<>();
      run.get("barriers").forEach(b -> kinds.add(b.get("kind").asText()));
      assertThat(kinds).contains("RUN_CAP");
    }
    assertThat(first.get("instantFiles").get(0).get("time").asText())
        .isLessThan(second.get("instantFiles").get(0).get("time").asText());
  }

  @Test
  void aMalformedAgeIsAUsageError() throws Exception {
    Tables.write(table, Tables.SMALL);

    Cli.Run run = Cli.run(args("plan", "--min-age", "seven days"));

    assertThat(run.exitCode()).isEqualTo(TimelineArchiveCommand.EXIT_USAGE);
    assertThat(run.err()).contains("archive.retain.min-age");
  }

  @Test
  void historyMaxAgePurgesAllButTheNewestArchiveFileAndSaysSo() throws Exception {
    Tables.write(table, Tables.SMALL);
    // a new archive file per run: each of these runs rolls over past a tiny size limit
    Cli.ok(args("archive", "--max-per-run", "5"));
    Cli.ok(args("archive", "--max-per-run", "5", "--conf", "archive.file.max-bytes=1024"));
    assertThat(java.nio.file.Files.exists(Tables.archiveFile(table, 2))).isTrue();

    Cli.Run plan = Cli.ok(args("plan", "--history-max-age", "1d"));
    // the sample's instants are from January 2026: older than a day
    JsonNode result = Cli.ok(args("archive", "--json", "--history-max-age", "1d")).json();

    assertThat(plan.outLines())
        .contains(
            "rule: archive history max-age 1d: archive files whose newest instant is older are"
                + " deleted (never the newest file)");
    List<String> purged = new ArrayList<>();
    result.get("archiveFilesPurged").forEach(n -> purged.add(n.asText()));
    assertThat(purged).containsExactly(".commits_.archive.1_1-0-1");
    assertThat(java.nio.file.Files.exists(Tables.archiveFile(table, 1))).isFalse();
    assertThat(java.nio.file.Files.exists(Tables.archiveFile(table, 2))).isTrue();
  }
}
