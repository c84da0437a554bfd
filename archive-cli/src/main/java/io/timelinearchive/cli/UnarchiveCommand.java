package io.timelinearchive.cli;

import io.timelinearchive.archive.restore.RestoreResult;
import io.timelinearchive.archive.restore.TimelineRestorer;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    mixinStandardHelpOptions = true,
    versionProvider = TimelineArchiveCommand.Version.class,
    name = "unarchive",
    description =
        "Restore archived instants to the active timeline, byte for byte, from the raw bytes the"
            + " archive keeps; they stay in the archive too.")
final class UnarchiveCommand implements Callable<Integer> {
  @ParentCommand TimelineArchiveCommand root;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "TABLE_URI", description = "The table's base path")
  String table;

  @Option(
      names = "--from",
      required = true,
      paramLabel = "TS",
      description = "First instant time to restore (inclusive)")
  String from;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "TS",
      description = "Last instant time to restore (inclusive)")
  String to;

  @Option(
      names = "--force",
      description = "Restore even instants older than the newest completed commit that is active.")
  boolean force;

  @Option(names = "--dry-run", description = "Show what would be restored; change nothing.")
  boolean dryRun;

  @Option(
      names = "--conf",
      paramLabel = "KEY=VALUE",
      description = "A storage backend's setting (s3.endpoint, ...) or archive.lock.lease.")
  List<String> conf = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    try (TimelineRestorer restorer = TimelineRestorer.open(table, ConfOptions.parse(conf, spec))) {
      RestoreResult result = restorer.restore(from, to, force, dryRun);
      if (root.json) {
        Map<String, Object> m = Reports.document(table);
        if (result.dryRun()) {
          m.put("dryRun", true);
        }
        Reports.putInstantFiles(m, result.restored());
        m.put("alreadyActive", result.alreadyActive().stream().map(Reports::instant).toList());
        m.put("warnings", result.warnings());
        Output.json(out, m);
      } else {
        Output.lines(out, result.restored());
        out.println(
            (result.dryRun() ? "would restore " : "restored ")
                + result.restored().size()
                + " instant file(s); "
                + result.alreadyActive().size()
                + " already in the active timeline");
        result.warnings().forEach(w -> out.println("warning: " + w));
        if (result.dryRun()) {
          out.println("dry run: nothing was changed");
        }
        out.flush();
      }
    }
    return TimelineArchiveCommand.EXIT_OK;
  }
}
