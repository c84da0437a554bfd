package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.SortedMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A misspelt key is a usage error naming it, on every command; other tools' keys are accepted. */
class TestSettingsCheck {
  @TempDir Path table;

  @ParameterizedTest
  @ValueSource(strings = {"archive", "plan", "show active", "show archived", "unarchive"})
  void aMisspeltKeyFailsWithADidYouMeanAndChangesNothing(String command) throws Exception {
    Tables.write(table, Tables.SMALL);
    SortedMap<String, String> before = Tables.snapshot(table);

    Cli.Run hoodie = Cli.run(args(command, "--conf", "hoodie.keep.min.comits=5"));
    Cli.Run ours = Cli.run(args(command, "--conf", "archive.retain.minage=7d"));

    assertThat(hoodie.exitCode()).isEqualTo(2);
    assertThat(hoodie.errLines())
        .first()
        .isEqualTo(
            "error: unknown setting hoodie.keep.min.comits; did you mean hoodie.keep.min.commits?");
    assertThat(ours.exitCode()).isEqualTo(2);
    assertThat(ours.errLines().get(0))
        .startsWith(
            "error: unknown setting archive.retain.minage; did you mean archive.retain.min-age?");
    assertThat(Tables.snapshot(table)).isEqualTo(before);
  }

  @ParameterizedTest
  @ValueSource(strings = {"archive", "plan"})
  void otherHudiKeysAreAcceptedAndListedUnderVerbose(String command) throws Exception {
    Tables.write(table, Tables.SMALL);

    Cli.Run quiet = Cli.run(args(command, "--conf", "hoodie.datasource.write.recordkey.field=id"));
    Cli.Run verbose =
        Cli.run(args(command, "--verbose", "--conf", "hoodie.datasource.write.recordkey.field=id"));

    assertThat(quiet.exitCode()).isZero();
    assertThat(quiet.err()).doesNotContain("hoodie.datasource");
    assertThat(verbose.exitCode()).isZero();
    assertThat(verbose.errLines())
        .contains("not read by timeline-archive, ignored: hoodie.datasource.write.recordkey.field");
  }

  private String[] args(String command, String... more) {
    java.util.List<String> all = new java.util.ArrayList<>(java.util.List.of(command.split(" ")));
    all.add(table.toString());
    if (command.equals("unarchive")) {
      all.addAll(java.util.List.of("--from", "0", "--to", "1"));
    }
    all.addAll(java.util.List.of(more));
    return all.toArray(String[]::new);
  }
}
