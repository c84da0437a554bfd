package io.timelinearchive.cli;

import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.select.ArchivalPlan;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

@Command(
    mixinStandardHelpOptions = true,
    versionProvider = TimelineArchiveCommand.Version.class,
    name = "plan",
    description = "Show what would be archived now and why selection stops there; change nothing.")
final class PlanCommand implements Callable<Integer> {
  @ParentCommand TimelineArchiveCommand root;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "TABLE_URI", description = "The table's base path")
  String table;

  @Mixin ArchivalOptions options;

  @Mixin PlanListing listing;

  @Override
  public Integer call() throws Exception {
    try (TimelineArchiver archiver = TimelineArchiver.open(table, options.config(spec))) {
      print(
          spec.commandLine().getOut(),
          root.json,
          table,
          archiver.plan(),
          archiver.rules(),
          listing,
          false);
    }
    return TimelineArchiveCommand.EXIT_OK;
  }

  /** The summary first; the files after it only as {@code --list} or {@code --limit} ask. */
  static void print(
      PrintWriter out,
      boolean json,
      String table,
      ArchivalPlan plan,
      List<String> rules,
      PlanListing listing,
      boolean dryRun) {
    if (json) {
      Output.json(out, Reports.plan(table, plan, rules, dryRun));
      return;
    }
    out.println(
        plan.files().size()
            + " instant file(s) of "
            + plan.instants().size()
            + " instant(s) would be archived");
    Reports.printPlanSummary(out, plan, rules);
    long shown = listing.shown(plan.files().size());
    Output.lines(out, plan.files().subList(0, (int) shown));
    if (shown < plan.files().size() && !plan.files().isEmpty()) {
      out.println(
          (shown == 0 ? "" : "listed " + shown + " of " + plan.files().size() + "; ")
              + "--list prints every instant file, --limit N the first N");
    }
    if (dryRun) {
      out.println("dry run: nothing was changed");
    }
    out.flush();
  }
}
