package io.timelinearchive.cli;

import io.timelinearchive.archive.TimelineArchiver;
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
    name = "unlock",
    description =
        "Release the archive lock of an archiver that died on another host (one that died on this"
            + " host is taken over by the next run at once). Refuses a holder that renewed its"
            + " lease within the last minute unless --force.")
final class UnlockCommand implements Callable<Integer> {
  @ParentCommand TimelineArchiveCommand root;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "TABLE_URI", description = "The table's base path")
  String table;

  @Option(
      names = "--owner",
      required = true,
      paramLabel = "ID",
      description = "The holder to release, as the 'locked by' message names it")
  String owner;

  @Option(names = "--force", description = "Release even a lock renewed within the last minute.")
  boolean force;

  @Option(
      names = "--conf",
      paramLabel = "KEY=VALUE",
      description = "A storage backend's setting (s3.endpoint, ...).")
  List<String> conf = new ArrayList<>();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    boolean released;
    try (TimelineArchiver archiver = TimelineArchiver.open(table, ConfOptions.parse(conf, spec))) {
      released = archiver.unlock(owner, force);
    }
    if (root.json) {
      Map<String, Object> m = Reports.document(table);
      m.put("owner", owner);
      m.put("released", released);
      Output.json(out, m);
    } else {
      out.println(
          released
              ? "released the archive lock of " + owner
              : "the archive is not locked; nothing to release");
      out.flush();
    }
    return TimelineArchiveCommand.EXIT_OK;
  }
}
