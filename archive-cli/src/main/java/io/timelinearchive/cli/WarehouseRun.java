package io.timelinearchive.cli;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.storage.DaemonThreads;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One command over every table below a folder: finds the tables ({@link TableFinder}), runs the
 * command's action on each, at most {@code --parallelism} at once, and prints a line per table as
 * it finishes and a total. A table that fails is reported and the others go on; the exit code is
 * the worst of all. Every table is reached through the one storage opened for the folder.
 */
final class WarehouseRun {
  /** What the action did to one table: the middle of its text line, its JSON fields, a count. */
  record TableSummary(String text, Map<String, Object> json, long instants) {}

  /** The action of a command on one table. */
  interface TableAction {
    TableSummary run(TimelineArchiver archiver) throws Exception;
  }

  /**
   * @param instantsText the text after the total of {@link TableSummary#instants}, e.g. {@code
   *     instant(s) archived}
   */
  record Command(String instantsText, TableAction action) {}

  private record Outcome(
      StorageLocation table, TableSummary summary, Exception failure, long nanos) {}

  private final PrintWriter out;
  private final PrintWriter err;
  private final boolean json;
  private final boolean verbose;

  WarehouseRun(PrintWriter out, PrintWriter err, boolean json, boolean verbose) {
    this.out = requireNonNull(out, "out is null");
    this.err = requireNonNull(err, "err is null");
    this.json = json;
    this.verbose = verbose;
  }

  /** Runs {@code command} on every table below {@code baseUri}; returns the worst exit code. */
  int run(String baseUri, WarehouseOptions options, Map<String, String> common, Command command)
      throws Exception {
    options.check();
    StorageLocation base = StorageLocation.of(baseUri);
    TableSettings settings =
        options.tableConf == null
            ? TableSettings.none()
            : TableSettings.read(options.tableConf, base, common);
    long start = System.nanoTime();
    ExecutorService pool =
        Executors.newFixedThreadPool(options.parallelism, DaemonThreads.numbered("archive-all-"));
    try (MetaStorage storage = MetaStorages.open(base, common)) {
      TableFinder.Found found = TableFinder.find(storage, base, options.depth, pool);
      for (StorageLocation missing : settings.notFound(found.tables())) {
        err.println(
            "warning: --table-conf names " + missing + ", which is no table found below " + base);
      }
      int worst = TimelineArchiveCommand.EXIT_OK;
      for (TableFinder.Unlisted u : found.unlisted()) {
        worst = worse(worst, printUnlisted(u));
      }
      CompletionService<Outcome> done = new ExecutorCompletionService<>(pool);
      for (StorageLocation table : found.tables()) {
        done.submit(() -> runOne(storage, table, settings.forTable(table, common), command));
      }
      int failed = 0;
      long instants = 0;
      for (int i = 0; i < found.tables().size(); i++) {
        Outcome outcome = done.take().get();
        int code = printOutcome(outcome);
        worst = worse(worst, code);
        if (code != TimelineArchiveCommand.EXIT_OK) {
          failed++;
        } else {
          instants += outcome.summary().instants();
        }
      }
      if (found.tables().isEmpty() && found.unlisted().isEmpty()) {
        // as archive on a folder that is no table: most likely a mistyped BASE_URI
        worst = TimelineArchiveCommand.EXIT_BAD_INPUT;
        err.println(
            "error: no Hudi table (a folder holding .hoodie/) below "
                + base
                + " down to --depth "
                + options.depth);
        err.flush();
      }
      printTotal(base, found, failed, instants, System.nanoTime() - start, worst, command);
      return worst;
    } finally {
      pool.shutdownNow();
    }
  }

  private static Outcome runOne(
      MetaStorage storage, StorageLocation table, Map<String, String> config, Command command) {
    long start = System.nanoTime();
    try (TimelineArchiver archiver =
        TimelineArchiver.create(storage, table, config, Clock.systemUTC(), ArchiveListener.NONE)) {
      TableSummary summary = command.action().run(archiver);
      return new Outcome(table, summary, null, System.nanoTime() - start);
    } catch (Exception e) {
      return new Outcome(table, null, e, System.nanoTime() - start);
    }
  }

  /**
   * The worse of two exit codes: an unexpected failure, then a usage error (a table's bad setting),
   * bad input, a held lock (another archiver is at work), success.
   */
  static int worse(int a, int b) {
    return severity(a) >= severity(b) ? a : b;
  }

  private static int severity(int code) {
    return switch (code) {
      case TimelineArchiveCommand.EXIT_OK -> 0;
      case TimelineArchiveCommand.EXIT_LOCKED -> 1;
      case TimelineArchiveCommand.EXIT_BAD_INPUT -> 2;
      case TimelineArchiveCommand.EXIT_USAGE -> 3;
      default -> 4;
    };
  }

  private int printOutcome(Outcome o) {
    long millis = o.nanos() / 1_000_000;
    if (o.failure() == null) {
      if (json) {
        Map<String, Object> m = header("table", "table", o.table());
        m.put("exitCode", TimelineArchiveCommand.EXIT_OK);
        m.putAll(o.summary().json());
        m.put("durationMillis", millis);
        out.println(Output.compactJson(m));
      } else {
        out.println(o.table() + ": " + o.summary().text() + "; " + millis + " ms");
      }
      out.flush();
      return TimelineArchiveCommand.EXIT_OK;
    }
    int code = TimelineArchiveCommand.exitCode(o.failure());
    String message = TimelineArchiveCommand.message(o.failure());
    if (json) {
      Map<String, Object> m = header("table", "table", o.table());
      m.put("exitCode", code);
      m.put("error", message);
      m.put("durationMillis", millis);
      out.println(Output.compactJson(m));
    } else {
      out.println(o.table() + ": failed (exit " + code + "): " + message + "; " + millis + " ms");
    }
    out.flush();
    printStackTrace(o.table(), o.failure());
    return code;
  }

  private int printUnlisted(TableFinder.Unlisted u) {
    int code = TimelineArchiveCommand.exitCode(u.failure());
    String message = "cannot list its folders: " + TimelineArchiveCommand.message(u.failure());
    if (json) {
      Map<String, Object> m = header("folder", "folder", u.folder());
      m.put("exitCode", code);
      m.put("error", message);
      out.println(Output.compactJson(m));
    } else {
      out.println(u.folder() + ": failed (exit " + code + "): " + message);
    }
    out.flush();
    printStackTrace(u.folder(), u.failure());
    return code;
  }

  private void printStackTrace(StorageLocation where, Exception e) {
    if (verbose) {
      err.println(where + ":");
      e.printStackTrace(err);
      err.flush();
    }
  }

  private void printTotal(
      StorageLocation base,
      TableFinder.Found found,
      int failed,
      long instants,
      long nanos,
      int worst,
      Command command) {
    int tables = found.tables().size();
    double seconds = nanos / 1e9;
    double perSecond = seconds > 0 ? tables / seconds : 0;
    if (json) {
      Map<String, Object> m = header("total", "base", base);
      m.put("tables", tables);
      m.put("ok", tables - failed);
      m.put("failed", failed);
      m.put("unlistedFolders", found.unlisted().size());
      m.put("instants", instants);
      m.put("folderListings", found.listings());
      m.put("durationMillis", nanos / 1_000_000);
      m.put("tablesPerSecond", Math.round(perSecond * 100) / 100.0);
      m.put("exitCode", worst);
      out.println(Output.compactJson(m));
    } else {
      out.println(
          String.format(
              Locale.ROOT,
              "%d table(s) below %s: %d ok, %d failed%s; %d %s; %d folder listing(s); %.1f s,"
                  + " %.1f tables/s",
              tables,
              base,
              tables - failed,
              failed,
              found.unlisted().isEmpty()
                  ? ""
                  : ", " + found.unlisted().size() + " folder(s) not listed",
              instants,
              command.instantsText(),
              found.listings(),
              seconds,
              perSecond));
    }
    out.flush();
  }

  /** The start of each JSON line: the schema version, what the line is about, and where. */
  private static Map<String, Object> header(String kind, String key, StorageLocation where) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("schemaVersion", 1);
    m.put("kind", kind);
    m.put(key, where.toString());
    return m;
  }
}
