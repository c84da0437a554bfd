package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code TABLE_URI} that is a file or a table's metadata folder is bad input (exit 3) naming the
 * folder to give; a relative local path is the absolute path it names.
 */
class TestTableArgument {
  @TempDir Path work;

  private static void assertBadInput(Cli.Run run, String errorLine) {
    assertThat(run.exitCode()).as("exit code; stderr: %s", run.err()).isEqualTo(3);
    assertThat(run.out()).isEmpty();
    assertThat(run.errLines()).containsExactly(errorLine);
  }

  @Test
  void aFileWhereATableFolderBelongsIsBadInput() throws Exception {
    Path file = Files.writeString(work.resolve("orders.parquet"), "not a table");

    for (String command : List.of("plan", "archive")) {
      assertBadInput(
          Cli.run(command, file.toString()),
          "error: file://"
              + file
              + " is a file, not a table folder: give the folder that holds .hoodie/");
    }
    assertBadInput(
        Cli.run("show", "active", file.toString()),
        "error: file://"
            + file
            + " is a file, not a table folder: give the folder that holds .hoodie/");
  }

  @Test
  void theMetadataFolderOrTheArchiveFolderSuggestsTheTable() throws Exception {
    Path table = work.resolve("t");
    Tables.write(table, Tables.SMALL);
    SortedMap<String, String> before = Tables.snapshot(table);

    for (String inside :
        List.of(".hoodie", ".hoodie/", ".hoodie/archived", ".hoodie/hoodie.properties")) {
      Path given = table.resolve(inside);
      assertBadInput(
          Cli.run("plan", given.toString()),
          "error: file://"
              + given.normalize()
              + " is inside the table's .hoodie/ folder: give the table folder, file://"
              + table);
    }
    assertBadInput(
        Cli.run("archive", "s3://bucket/warehouse/t/.hoodie/archived"),
        "error: s3://bucket/warehouse/t/.hoodie/archived is inside the table's .hoodie/ folder:"
            + " give the table folder, s3://bucket/warehouse/t");
    assertThat(Tables.snapshot(table)).isEqualTo(before);
  }

  @Test
  void aRelativePathIsTheTableItNamesFromTheWorkingFolder() throws Exception {
    Path table = work.resolve("t");
    Tables.write(table, Tables.SMALL);
    Path relative = Path.of("").toAbsolutePath().relativize(table);
    assertThat(relative.isAbsolute()).isFalse();

    Cli.Run byRelative = Cli.ok("plan", relative.toString(), "--json");
    Cli.Run byAbsolute = Cli.ok("plan", table.toString(), "--json");

    assertThat(byRelative.out()).isEqualTo(byAbsolute.out());
  }
}
