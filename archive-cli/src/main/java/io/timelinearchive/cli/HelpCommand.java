package io.timelinearchive.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Parameters;

/**
 * {@code help [COMMAND [SUBCOMMAND...]]}: picocli's own help command takes one name, so {@code help
 * show archived} would be a usage error; this one follows the whole path.
 */
@Command(
    name = "help",
    helpCommand = true,
    mixinStandardHelpOptions = true,
    versionProvider = TimelineArchiveCommand.Version.class,
    description = "Describe a command and its options: help show archived.")
final class HelpCommand implements CommandLine.IHelpCommandInitializable2, Callable<Integer> {
  @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command, and subcommand")
  List<String> path = List.of();

  private CommandLine self;
  private PrintWriter out;
  private ColorScheme colors = CommandLine.Help.defaultColorScheme(Ansi.AUTO);

  @Override
  public void init(
      CommandLine helpCommandLine, ColorScheme colorScheme, PrintWriter out, PrintWriter err) {
    this.self = helpCommandLine;
    this.colors = colorScheme;
    this.out = out;
  }

  @Override
  public Integer call() {
    CommandLine command = self.getParent();
    for (String name : path) {
      CommandLine sub = command.getSubcommands().get(name);
      if (sub == null) {
        throw new CommandLine.ParameterException(
            self,
            "no command '"
                + name
                + "' in '"
                + command.getCommandSpec().qualifiedName()
                + "'; its commands: "
                + String.join(", ", command.getSubcommands().keySet()));
      }
      command = sub;
    }
    command.usage(out, colors);
    return command.getCommandSpec().exitCodeOnUsageHelp();
  }
}
