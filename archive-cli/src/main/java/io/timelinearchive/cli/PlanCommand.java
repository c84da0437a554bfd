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
    name = "plan",
    description = "Show what would be archived now and why selection stops there; change nothing.")
final class PlanCommand implements Callable<Integer> {
  @ParentCommand TimelineArchiveCommand root;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "TABLE_URI", description = "The table's base path")
  String table;

  @Mixin ArchivalOptions options;

  @Override
  public Integer call() throws Exception {
    try (TimelineArchiver archiver = TimelineArchiver.open(table, options.config(spec))) {
      print(spec.commandLine().getOut(), root.json, archiver.plan(), archiver.rules(), false);
    }
    return TimelineArchiveCommand.EXIT_OK;
  }

  static void print(
      PrintWriter out, boolean json, ArchivalPlan plan, List<String> rules, boolean dryRun) {
    if (json) {
      Output.json(out, Reports.plan(plan, rules, dryRun));
      return;
    }
    Output.lines(out, plan.files());
    out.println(
        plan.files().size()
            + " instant file(s) of "
            + plan.instants().size()
            + " instant(s) would be archived");
    Reports.printPlanSummary(out, plan, rules);
    if (dryRun) {
      out.println("dry run: nothing was changed");
    }
    out.flush();
  }
}
