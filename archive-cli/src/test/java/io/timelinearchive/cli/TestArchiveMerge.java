package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Merging small archive files, as the CLI reports it in JSON and in plain text. */
class TestArchiveMerge {
  @TempDir Path table;

  private String[] args(String command, String... more) {
    List<String> all = new ArrayList<>(List.of(command, table.toString()));
    all.addAll(Tables.AGGRESSIVE);
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }

  /** Three runs, three archive files: each run rolls over past a tiny size limit. */
  private void threeSmallFiles() throws Exception {
    Tables.write(table, Tables.SMALL);
    for (int run = 0; run < 3; run++) {
      Cli.ok(args("archive", "--max-per-run", "4", "--conf", "archive.file.max-bytes=1024"));
    }
    assertThat(Files.exists(Tables.archiveFile(table, 3))).isTrue();
  }

  @Test
  void jsonNamesTheMergedFilesAndTheFileTheyWentInto() throws Exception {
    threeSmallFiles();

    JsonNode result =
        Cli.ok(
                args(
                    "archive",
                    "--json",
                    "--max-per-run",
                    "4",
                    "--conf",
                    "hoodie.archive.merge.enable=true",
                    "--conf",
                    "hoodie.archive.merge.files.batch.size=3"))
            .json();

    List<String> merged = new ArrayList<>();
    result.get("archiveFilesMerged").forEach(n -> merged.add(n.asText()));
    assertThat(merged)
        .containsExactly(
            ".commits_.archive.1_1-0-1", ".commits_.archive.2_1-0-1", ".commits_.archive.3_1-0-1");
    assertThat(result.get("mergedArchiveFile").asText()).isEqualTo(".commits_.archive.4_1-0-1");
    assertThat(result.get("phasesMillis").has("merge")).isTrue();
    assertThat(Files.exists(Tables.archiveFile(table, 1))).isFalse();
    assertThat(Files.exists(Tables.archiveFile(table, 4))).isTrue();
  }

  @Test
  void plainOutputSaysWhatWasMergedAndLocalDiskDoesNotMergeByDefault() throws Exception {
    threeSmallFiles();
    // local disk appends: merging is off unless asked for
    Cli.Run idle = Cli.ok(args("archive", "--conf", "hoodie.archive.merge.files.batch.size=2"));
    assertThat(idle.out()).doesNotContain("merged");

    Cli.Run run =
        Cli.ok(
            args(
                "archive",
                "--conf",
                "hoodie.archive.merge.enable=true",
                "--conf",
                "hoodie.archive.merge.files.batch.size=3"));

    assertThat(run.outLines())
        .contains("merged 3 small archive file(s) into .commits_.archive.4_1-0-1");
  }

  @Test
  void aBadMergeSettingIsAUsageErrorNamingIt() throws Exception {
    Tables.write(table, Tables.SMALL);
    Cli.Run run = Cli.run(args("archive", "--conf", "hoodie.archive.merge.files.batch.size=1"));
    assertThat(run.exitCode()).isNotZero();
    assertThat(run.err()).contains("hoodie.archive.merge.files.batch.size='1'");
  }
}
