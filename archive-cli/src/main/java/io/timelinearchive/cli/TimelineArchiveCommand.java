package io.timelinearchive.cli;

import io.timelinearchive.archive.folder.ArchiveLockedException;
import io.timelinearchive.archive.restore.RestoreRefusedException;
import io.timelinearchive.format.CorruptArchiveException;
import io.timelinearchive.format.InstantConversionException;
import io.timelinearchive.storage.StorageUnreachableException;
import io.timelinearchive.timeline.InvalidTableFileException;
import io.timelinearchive.timeline.UnsupportedTableException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
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
      ArchiveAllCommand.class,
      PlanAllCommand.class,
      ShowCommand.class,
      UnarchiveCommand.class,
      UnlockCommand.class,
      HelpCommand.class
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:ok",
      "1:unexpected failure",
      "2:usage error (bad option or setting)",
      "3:bad input (unreadable instant file, corrupt archive, not a Hudi 0.x table, an unarchive"
          + " refused)",
      "4:the archive lock is held by another archiver",
      "5:storage unreachable or access denied (unknown host, refused connection, no answer in"
          + " time, no credentials, a refused request: the error names the settings to check)"
    })
public final class TimelineArchiveCommand {
  static final int EXIT_OK = 0;
  static final int EXIT_FAILURE = 1;
  static final int EXIT_USAGE = 2;
  static final int EXIT_BAD_INPUT = 3;
  static final int EXIT_LOCKED = 4;
  static final int EXIT_UNREACHABLE = 5;

  @Option(
      names = "--json",
      scope = ScopeType.INHERIT,
      description = "Print machine-readable JSON on standard output.")
  boolean json;

  @Option(
      names = LogLevels.VERBOSE,
      scope = ScopeType.INHERIT,
      description =
          "Print stack traces of errors, and the log of the libraries from INFO (by default only"
              + " our warnings are logged).")
  boolean verbose;

  @Option(
      names = LogLevels.OPTION,
      paramLabel = "LEVEL",
      scope = ScopeType.INHERIT,
      description =
          "Log every logger, the storage SDKs' and Hadoop's included, from LEVEL: trace, debug,"
              + " info, warn, error or off (default: our warnings only).")
  LogLevel logLevel;

  enum LogLevel {
    TRACE,
    DEBUG,
    INFO,
    WARN,
    ERROR,
    OFF
  }

  /**
   * The {@code timeline-archive} command (the jar's main class); exits with the command's code.
   *
   * @param args the command line, e.g. {@code archive s3://bucket/t --min 20 --max 30}
   */
  public static void main(String[] args) {
    // Before any class that holds a logger is loaded, picocli's commands included.
    LogLevels.configure(args);
    System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /**
   * Runs the command line and returns its exit code; for tests and embedding.
   *
   * @param args the command line
   * @param out where results go
   * @param err where errors and progress go
   * @return the exit code, as {@code --help} lists them
   */
  public static int run(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cli = new CommandLine(new TimelineArchiveCommand());
    cli.setOut(out);
    cli.setErr(err);
    cli.setExitCodeExceptionMapper(TimelineArchiveCommand::exitCode);
    cli.setParameterExceptionHandler(TimelineArchiveCommand::usageError);
    cli.setCaseInsensitiveEnumValuesAllowed(true);
    cli.setExecutionStrategy(TimelineArchiveCommand::resolveTablesThenRun);
    cli.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          boolean verbose =
              commandLine.getCommandSpec().root().userObject() instanceof TimelineArchiveCommand r
                  && r.verbose;
          int code = exitCode(e);
          PrintWriter errors = commandLine.getErr();
          String message = message(e);
          if (commandLine.getCommandSpec().root().userObject() instanceof TimelineArchiveCommand r
              && r.json) {
            Output.error(commandLine.getOut(), message, code);
          }
          errors.println("error: " + message);
          if (verbose) {
            e.printStackTrace(errors);
          } else if (code == EXIT_FAILURE) {
            errors.println("(an unexpected failure: --verbose prints its stack trace)");
          }
          errors.flush();
          return code;
        });
    return cli.execute(args);
  }

  /**
   * Every {@code TABLE_URI} made absolute and checked ({@link TableArgument}) before the command
   * runs; a failure goes to the same handler as the command's own.
   */
  private static int resolveTablesThenRun(CommandLine.ParseResult parseResult) {
    for (CommandLine.ParseResult p = parseResult; p != null; p = p.subcommand()) {
      for (CommandLine.Model.PositionalParamSpec param : p.commandSpec().positionalParameters()) {
        if (param.paramLabel().equals("TABLE_URI") && param.getValue() instanceof String table) {
          try {
            param.setValue(TableArgument.resolve(table));
          } catch (RuntimeException e) {
            throw new CommandLine.ExecutionException(p.commandSpec().commandLine(), "", e);
          }
        }
      }
    }
    return new CommandLine.RunLast().execute(parseResult);
  }

  /** A bad command line: one error line and the command's synopsis, not its whole help. */
  private static int usageError(CommandLine.ParameterException e, String[] args) {
    CommandLine commandLine = e.getCommandLine();
    PrintWriter err = commandLine.getErr();
    // The options may not have been parsed: the argument itself says whether JSON was asked for.
    if (java.util.Arrays.asList(args).contains("--json")) {
      Output.error(commandLine.getOut(), e.getMessage(), EXIT_USAGE);
    }
    err.println("error: " + e.getMessage());
    CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
    CommandLine.Help help = commandLine.getHelp();
    err.print(help.synopsisHeading());
    err.print(help.synopsis(help.synopsisHeadingLength()));
    err.println(
        "Run '"
            + commandLine.getCommandSpec().root().name()
            + " help' for the commands and options.");
    err.flush();
    return EXIT_USAGE;
  }

  static int exitCode(Throwable e) {
    if (e instanceof UncheckedIOException u && u.getCause() != null) {
      return exitCode(u.getCause());
    }
    if (e instanceof ArchiveLockedException) {
      return EXIT_LOCKED;
    }
    if (e instanceof StorageUnreachableException || e instanceof AccessDeniedException) {
      return EXIT_UNREACHABLE;
    }
    if (e instanceof InstantConversionException
        || e instanceof InvalidTableFileException
        || e instanceof UnsupportedTableException
        || e instanceof CorruptArchiveException
        || e instanceof RestoreRefusedException
        || e instanceof TableArgument.NotATableFolderException
        || e instanceof NoSuchFileException) {
      return EXIT_BAD_INPUT;
    }
    if (e instanceof IllegalArgumentException || e instanceof CommandLine.ParameterException) {
      return EXIT_USAGE;
    }
    return EXIT_FAILURE;
  }

  static String message(Throwable e) {
    if (e instanceof UncheckedIOException u && u.getCause() != null) {
      return message(u.getCause());
    }
    if (e instanceof NoSuchFileException n) {
      return n.getReason() != null ? n.getReason() : "no such file: " + n.getFile();
    }
    // The JDK's file system exceptions say only the path unless the OS gave a reason.
    if (e instanceof NotDirectoryException n) {
      return "not a folder: " + n.getFile();
    }
    if (e instanceof AccessDeniedException a) {
      return "access denied: "
          + a.getFile()
          + (a.getReason() == null ? "" : " (" + a.getReason() + ")");
    }
    if (e instanceof FileAlreadyExistsException f) {
      return "already exists: " + f.getFile();
    }
    if (e instanceof FileSystemException f && f.getReason() == null) {
      return e.getClass().getSimpleName() + ": " + f.getFile();
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
