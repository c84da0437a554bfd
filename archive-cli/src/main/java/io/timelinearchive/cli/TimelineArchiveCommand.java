package io.timelinearchive.cli;

import io.timelinearchive.archive.ArchiveLockedException;
import io.timelinearchive.format.CorruptArchiveException;
import io.timelinearchive.format.InstantConversionException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code timeline-archive}: archive, plan and inspect Hudi timelines from the shell. */
@Command(
    name = "timeline-archive",
    mixinStandardHelpOptions = true,
    versionProvider = TimelineArchiveCommand.Version.class,
    description =
        "Keeps the active timeline of Hudi 0.x tables small, in Hudi's own archive format.",
    subcommands = {
      DemoCommand.class,
      ArchiveCommand.class,
      PlanCommand.class,
      ShowCommand.class,
      CommandLine.HelpCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:ok",
      "1:unexpected failure",
      "2:usage error (bad option or setting)",
      "3:bad input (unreadable instant file, corrupt archive, not a Hudi table)",
      "4:the archive lock is held by another archiver"
    })
public final class TimelineArchiveCommand {
  static final int EXIT_OK = 0;
  static final int EXIT_FAILURE = 1;
  static final int EXIT_USAGE = 2;
  static final int EXIT_BAD_INPUT = 3;
  static final int EXIT_LOCKED = 4;

  @Option(
      names = "--json",
      scope = ScopeType.INHERIT,
      description = "Print machine-readable JSON on standard output.")
  boolean json;

  @Option(
      names = "--verbose",
      scope = ScopeType.INHERIT,
      description = "Print stack traces of errors.")
  boolean verbose;

  public static void main(String[] args) {
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /** Runs the command line and returns its exit code; for tests and embedding. */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new TimelineArchiveCommand());
    cli.setOut(out);
    cli.setErr(err);
    cli.setExitCodeExceptionMapper(TimelineArchiveCommand::exitCode);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          TimelineArchiveCommand root =
              commandLine.getCommandSpec().root().userObject() instanceof TimelineArchiveCommand r
                  ? r
                  : null;
          commandLine.getErr().println("error: " + message(e));
          if (root != null && root.verbose) {
            e.printStackTrace(commandLine.getErr());
          }
          commandLine.getErr().flush();
          return exitCode(e);
        });
    return cli.execute(args);
  }

  static int exitCode(Throwable e) {
    if (e instanceof ArchiveLockedException) {
      return EXIT_LOCKED;
    }
    if (e instanceof InstantConversionException
        || e instanceof CorruptArchiveException
        || e instanceof NoSuchFileException) {
      return EXIT_BAD_INPUT;
    }
    if (e instanceof IllegalArgumentException || e instanceof CommandLine.ParameterException) {
      return EXIT_USAGE;
    }
    return EXIT_FAILURE;
  }

  private static String message(Throwable e) {
    if (e instanceof NoSuchFileException n && n.getReason() != null) {
      return n.getReason();
    }
    if (e instanceof NoSuchFileException n) {
      return "no such file: " + n.getFile();
    }
    String m = e.getMessage();
    return m == null || m.isBlank() ? e.toString() : m;
  }

  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = TimelineArchiveCommand.class.getPackage().getImplementationVersion();
      return new String[] {"timeline-archive " + (v == null ? "development build" : v)};
    }
  }
}
