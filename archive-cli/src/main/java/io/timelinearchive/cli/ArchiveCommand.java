package io.timelinearchive.cli;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.select.ArchivalPlan;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    mixinStandardHelpOptions = true,
    versionProvider = TimelineArchiveCommand.Version.class,
    name = "archive",
    description =
        "Archive what the retention rules select: append it to the archive, then delete it from"
            + " the active timeline.")
final class ArchiveCommand implements Callable<Integer> {
  @ParentCommand TimelineArchiveCommand root;
  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "TABLE_URI",
      description = "The table's base path, e.g. s3://bucket/t or /data/t")
  String table;

  @Mixin ArchivalOptions options;

  @Option(names = "--dry-run", description = "Show what would be archived; change nothing.")
  boolean dryRun;

  @Mixin PlanListing listing;

  @Mixin ProgressOption progress;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (TimelineArchiver archiver =
        TimelineArchiver.open(
            table, options.config(spec), PauseHook.wrap(ProgressListener.of(progress, err), err))) {
      if (dryRun) {
        ArchivalPlan plan = archiver.plan();
        PlanCommand.print(out, root.json, table, plan, archiver.rules(), listing, true);
        return TimelineArchiveCommand.EXIT_OK;
      }
      ArchiveResult result = archiver.archiveIfRequired();
      if (root.json) {
        Output.json(out, Reports.result(table, result));
      } else {
        Reports.printResult(out, result);
      }
      return TimelineArchiveCommand.EXIT_OK;
    }
  }
}
