package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table whose properties claim Hudi 1.x while its instants are where Hudi 0.x keeps them is
 * refused, exit 3, by every command that archives, plans or restores (Hudi 1.x tables themselves
 * are read and archived, see archive-hudi1); one of a version we do not know, by every command.
 */
class TestUnsupportedTables {
  @TempDir Path table;

  @ParameterizedTest
  @ValueSource(strings = {"plan", "archive", "unarchive"})
  void aHudi0xTableClaimingHudi1IsRefusedWithExit3AndNothingChanges(String command)
      throws Exception {
    assertRefused(command, "8", "2", "hoodie.table.version=8", "(Hudi 1.x)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"plan", "archive", "show active", "show archived", "unarchive"})
  void aTableOfAnUnknownVersionIsRefusedByEveryCommand(String command) throws Exception {
    assertRefused(command, "9", "2", "hoodie.table.version=9", "(Hudi 1.x)");
  }

  /** Writes a table claiming these versions, runs the command, and checks the refusal. */
  private void assertRefused(
      String command, String tableVersion, String layoutVersion, String... named) throws Exception {
    Tables.write(table, Tables.SMALL);
    Path properties = table.resolve(".hoodie/hoodie.properties");
    Files.writeString(
        properties,
        Files.readString(properties)
            .replace("hoodie.table.version=6", "hoodie.table.version=" + tableVersion)
            .replace(
                "hoodie.timeline.layout.version=1",
                "hoodie.timeline.layout.version=" + layoutVersion));
    SortedMap<String, String> before = Tables.snapshot(table);

    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.add(table.toString());
    if (command.equals("unarchive")) {
      args.addAll(List.of("--from", "0", "--to", "9"));
    }
    Cli.Run run = Cli.run(args.toArray(String[]::new));

    assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
    assertThat(run.errLines().get(0)).contains(named).contains("nothing was changed");
    assertThat(Tables.snapshot(table)).isEqualTo(before);
    assertThat(table.resolve(".hoodie/archived")).doesNotExist();
  }
}
