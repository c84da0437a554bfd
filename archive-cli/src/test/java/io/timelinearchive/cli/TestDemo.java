package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestDemo {
  @TempDir Path dir;

  @Test
  void writesArchivesAndReadsBackASampleTable() throws Exception {
    Path folder = dir.resolve("demo");

    Cli.Run run = Cli.ok("demo", folder.toString());

    assertThat(run.outLines())
        .contains(
            "sample table: " + folder.toAbsolutePath(),
            "selection stopped: first savepoint at 20261101095309093",
            "reading the archive back:",
            "  check: every instant file written is in the active timeline or the archive");
    assertThat(run.outLines()).anyMatch(l -> l.matches("wrote \\d+ instant files, .*"));
    assertThat(run.outLines())
        .anyMatch(l -> l.matches("wrote \\.commits_\\.archive\\.1_1-0-1: .*"));
    assertThat(Tables.archiveFile(folder, 1)).exists();
    // the table it leaves behind is one the other commands read
    Cli.ok("show", "archived", folder.toString());
    JsonNode second = Cli.ok("archive", folder.toString(), "--json").json();
    assertThat(second.get("instantFiles")).isEmpty();
  }

  @Test
  void jsonSaysWhatWasWrittenArchivedAndReadBack() {
    JsonNode json = Cli.ok("demo", "--json", dir.resolve("demo").toString()).json();

    int written = json.get("instantFilesWritten").asInt();
    assertThat(written).isGreaterThanOrEqualTo(200);
    assertThat(json.get("instantsByAction").fieldNames())
        .toIterable()
        .contains("commit", "deltacommit", "clean", "rollback", "savepoint");
    JsonNode result = json.get("result");
    assertThat(result.get("activeBefore").asInt()).isEqualTo(written);
    assertThat(result.get("instantFiles").size()).isPositive();
    assertThat(result.get("barrier").get("kind").asText()).isEqualTo("SAVEPOINT");
    JsonNode readBack = json.get("archiveReadBack");
    assertThat(readBack.get("instantFileCount").asInt())
        .isEqualTo(result.get("instantFiles").size());
    assertThat(readBack.get("archiveFiles").get(0).get("name").asText())
        .isEqualTo(".commits_.archive.1_1-0-1");
    assertThat(json.get("everyInstantFileKept").asBoolean()).isTrue();
  }

  @Test
  void endsWithTheNextCommandsToTryAndEachOfThemRuns() {
    Path folder = dir.resolve("demo");

    List<String> out = Cli.ok("demo", folder.toString()).outLines();

    assertThat(out.get(out.size() - 1))
        .isEqualTo(
            "for a sample table that still needs archiving, to try plan and archive on: "
                + "timeline-archive demo --no-archive");
    assertNextCommandsRun(out, "show archived " + folder.toAbsolutePath() + " --limit 10");
  }

  @Test
  void noArchiveWritesTheSameTableAndStopsBeforeArchiving() throws Exception {
    Path folder = dir.resolve("sample");
    Path archived = dir.resolve("archived");
    int archivedFiles =
        Cli.ok("--json", "demo", archived.toString()).json().get("instantFilesWritten").asInt();

    Cli.Run run = Cli.ok("demo", "--no-archive", folder.toString());
    JsonNode json = Cli.ok("--json", "demo", "--no-archive", dir.resolve("json").toString()).json();

    assertThat(run.outLines())
        .contains("sample table: " + folder.toAbsolutePath(), "not archived (--no-archive)");
    assertThat(json.get("instantFilesWritten").asInt()).isEqualTo(archivedFiles);
    assertThat(json.has("result")).isFalse();
    assertThat(Tables.archiveFile(folder, 1)).doesNotExist();
    JsonNode plan = Cli.ok("--json", "plan", folder.toString()).json();
    assertThat(plan.get("instants").asInt()).as("still needs archiving").isPositive();
    assertNextCommandsRun(run.outLines(), "plan " + folder.toAbsolutePath());
    assertThat(Tables.archiveFile(folder, 1)).as("its next commands archive it").exists();
  }

  /** Runs each " timeline-archive ..." line the demo printed, in order; each must succeed. */
  private static void assertNextCommandsRun(List<String> out, String firstExpected) {
    List<String> next =
        out.stream()
            .filter(l -> l.startsWith("  timeline-archive "))
            .map(l -> l.substring("  timeline-archive ".length()))
            .toList();
    assertThat(next).first().isEqualTo(firstExpected);
    for (String command : next) {
      Cli.ok(command.split(" "));
    }
  }

  @Test
  void refusesAFolderThatIsNotEmpty() throws Exception {
    Files.writeString(dir.resolve("keep.txt"), "mine");

    Cli.Run run = Cli.run("demo", dir.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines())
        .containsExactly(
            "error: demo folder "
                + dir.toAbsolutePath()
                + " is not empty; give an empty or new folder");
    assertThat(dir.resolve("keep.txt")).hasContent("mine");
    assertThat(dir.resolve(".hoodie")).doesNotExist();
  }

  @Test
  void refusesAFile() throws Exception {
    Path file = Files.writeString(dir.resolve("file"), "mine");

    Cli.Run run = Cli.run("demo", file.toString());

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines())
        .containsExactly(
            "error: demo folder "
                + file.toAbsolutePath()
                + " is a file; give an empty or new folder");
  }
}
