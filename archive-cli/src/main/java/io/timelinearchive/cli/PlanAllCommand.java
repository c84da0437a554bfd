package io.timelinearchive.cli;

import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.select.ArchivalPlan;
import java.util.LinkedHashMap;
import java.util.Map;
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
    name = "plan-all",
    description =
        "Show what archive-all would archive in every Hudi table below a folder, and why selection"
            + " stops there; change nothing.")
final class PlanAllCommand implements Callable<Integer> {
  @ParentCommand TimelineArchiveCommand root;
  @Spec CommandSpec spec;

  @Parameters(paramLabel = "BASE_URI", description = "The folder the tables are below")
  String base;

  @Mixin ArchivalOptions options;
  @Mixin WarehouseOptions warehouse;

  @Override
  public Integer call() throws Exception {
    return new WarehouseRun(
            spec.commandLine().getOut(), spec.commandLine().getErr(), root.json, root.verbose)
        .run(
            base,
            warehouse,
            options.config(spec),
            new WarehouseRun.Command("instant(s) to archive", PlanAllCommand::plan));
  }

  private static WarehouseRun.TableSummary plan(TimelineArchiver archiver) throws Exception {
    ArchivalPlan plan = archiver.plan();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("instants", plan.instants().size());
    json.put("instantFileCount", plan.files().size());
    json.put("instantsByAction", Reports.byAction(plan));
    json.put("barrier", Reports.barrier(plan.barrier()));
    json.put("warnings", plan.warnings());
    String text =
        "would archive "
            + plan.instants().size()
            + " instant(s) ("
            + plan.files().size()
            + " file(s)); selection stopped: "
            + plan.barrier().message()
            + (plan.warnings().isEmpty() ? "" : "; " + plan.warnings().size() + " warning(s)");
    return new WarehouseRun.TableSummary(text, json, plan.instants().size());
  }
}
