package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.timelinearchive.timeline.TimelineInstant;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestUnarchive {
  private static final String ALL_FROM = "0";
  private static final String ALL_TO = "99999999999999999";

  @TempDir Path table;

  private Map<String, byte[]> instantFiles() throws Exception {
    Map<String, byte[]> files = new HashMap<>();
    for (TimelineInstant i : Tables.activeInstants(table)) {
      files.put(i.fileName(), Files.readAllBytes(Tables.meta(table).resolve(i.fileName())));
    }
    return files;
  }

  private Map<String, byte[]> archiveSmallTable() throws Exception {
    Tables.write(table, Tables.SMALL);
    Map<String, byte[]> original = instantFiles();
    List<String> args = new ArrayList<>(List.of("archive", table.toString()));
    args.addAll(Tables.AGGRESSIVE);
    Cli.ok(args.toArray(String[]::new));
    return original;
  }

  @Test
  void refusesWithoutForceAndChangesNothing() throws Exception {
    archiveSmallTable();
    SortedMap<String, String> before = Tables.snapshot(table);

    Cli.Run run = Cli.run("unarchive", table.toString(), "--from", ALL_FROM, "--to", ALL_TO);

    assertThat(run.exitCode()).isEqualTo(TimelineArchiveCommand.EXIT_BAD_INPUT);
    assertThat(run.err())
        .startsWith("error: nothing restored: ")
        .contains("would land before the newer completed commit")
        .contains("--force");
    assertThat(run.hasStackTrace()).isFalse();
    assertThat(Tables.snapshot(table)).isEqualTo(before);
  }

  @Test
  void dryRunListsAndChangesNothing() throws Exception {
    archiveSmallTable();
    List<TimelineInstant> active = Tables.activeInstants(table);
    SortedMap<String, String> before = Tables.snapshot(table);

    Cli.Run run =
        Cli.ok(
            "unarchive",
            table.toString(),
            "--from",
            ALL_FROM,
            "--to",
            ALL_TO,
            "--force",
            "--dry-run");

    assertThat(Tables.snapshot(table)).isEqualTo(before);
    assertThat(Tables.activeInstants(table)).isEqualTo(active);
    assertThat(run.outLines()).last().isEqualTo("dry run: nothing was changed");
    assertThat(run.out()).contains("would restore ");
  }

  @Test
  void forceRestoresEveryArchivedFileByteForByteAndASecondRunFindsThemThere() throws Exception {
    Map<String, byte[]> original = archiveSmallTable();
    int activeAfterArchival = Tables.activeInstants(table).size();

    JsonNode result =
        Cli.ok(
                "unarchive",
                table.toString(),
                "--from",
                ALL_FROM,
                "--to",
                ALL_TO,
                "--force",
                "--json")
            .json();

    assertThat(result.get("instantFiles")).hasSize(original.size() - activeAfterArchival);
    assertThat(result.get("alreadyActive")).isEmpty();
    Map<String, byte[]> now = instantFiles();
    assertThat(now.keySet()).isEqualTo(original.keySet());
    original.forEach((name, bytes) -> assertThat(now.get(name)).as(name).isEqualTo(bytes));
    // the archive still holds them
    assertThat(Files.exists(Tables.archiveFile(table, 1))).isTrue();

    Cli.Run again =
        Cli.ok("unarchive", table.toString(), "--from", ALL_FROM, "--to", ALL_TO, "--force");
    assertThat(again.outLines())
        .contains(
            "restored 0 instant file(s); "
                + (original.size() - activeAfterArchival)
                + " already in the active timeline");
  }

  @Test
  void fromAndToAreRequired() {
    Cli.Run run = Cli.run("unarchive", table.toString(), "--from", "1");

    assertThat(run.exitCode()).isEqualTo(TimelineArchiveCommand.EXIT_USAGE);
    assertThat(run.err()).contains("--to");
  }
}
