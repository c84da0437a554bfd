package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

class TestHelpOnEveryCommand {
  /** Every command and subcommand, as its path of names, read from the command tree itself. */
  static List<String> commands() {
    List<String> paths = new ArrayList<>();
    collect(new CommandLine(new TimelineArchiveCommand()), "", paths);
    return paths;
  }

  private static void collect(CommandLine command, String path, List<String> paths) {
    command
        .getSubcommands()
        .forEach(
            (name, sub) -> {
              String subPath = (path + " " + name).strip();
              paths.add(subPath);
              collect(sub, subPath, paths);
            });
  }

  @ParameterizedTest
  @MethodSource("commands")
  void helpAndHOptionsPrintTheUsageAndExitZero(String command) {
    for (String flag : List.of("--help", "-h")) {
      List<String> args = new ArrayList<>(List.of(command.split(" ")));
      args.add(flag);

      Cli.Run run = Cli.run(args.toArray(String[]::new));

      assertThat(run.exitCode()).as("%s %s: %s", command, flag, run.err()).isZero();
      assertThat(run.out()).contains("Usage: timeline-archive " + command);
    }
  }

  @ParameterizedTest
  @MethodSource("commands")
  void versionWorksOnEveryCommand(String command) {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    args.add("--version");

    assertThat(Cli.ok(args.toArray(String[]::new)).out()).startsWith("timeline-archive ");
  }

  @ParameterizedTest
  @MethodSource("commands")
  void theHelpCommandDescribesEachCommand(String command) {
    List<String> args = new ArrayList<>(List.of("help"));
    args.addAll(List.of(command.split(" ")));

    Cli.Run run = Cli.run(args.toArray(String[]::new));

    assertThat(run.exitCode()).as("help %s: %s", command, run.err()).isZero();
    assertThat(run.out()).contains("Usage: timeline-archive " + command);
  }

  @org.junit.jupiter.api.Test
  void helpShowArchivedDescribesItsOptions() {
    Cli.Run run = Cli.ok("help", "show", "archived");

    assertThat(run.out())
        .contains("--from=TS", "Only instants at or after this time.")
        .contains("--to=TS", "Only instants at or before this time.")
        .contains("--details", "Also print each instant's archived metadata.");
  }

  @org.junit.jupiter.api.Test
  void helpOnAnUnknownCommandIsAUsageErrorNamingTheCommandsThere() {
    Cli.Run run = Cli.run("help", "show", "archve");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines())
        .first()
        .isEqualTo(
            "error: no command 'archve' in 'timeline-archive show'; its commands: active, archived");
  }
}
