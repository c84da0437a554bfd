package io.timelinearchive.cli;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.TimelineArchiver;
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
    name = "archive-all",
    description =
        "Archive every Hudi table below a folder (those holding .hoodie/, down to --depth), a few"
            + " at a time: a line per table and a total; one table's failure does not stop the"
            + " others, and the exit code is the worst of all.")
final class ArchiveAllCommand implements Callable<Integer> {
  @ParentCommand TimelineArchiveCommand root;
  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "BASE_URI",
      description = "The folder the tables are below, e.g. s3://bucket/warehouse or /data")
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
            new WarehouseRun.Command("instant(s) archived", ArchiveAllCommand::archive));
  }

  private static WarehouseRun.TableSummary archive(TimelineArchiver archiver) throws Exception {
    ArchiveResult r = archiver.archiveIfRequired();
    int instants = r.archivedByAction().values().stream().mapToInt(Integer::intValue).sum();
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("instants", instants);
    json.put("instantFileCount", r.archived().size());
    json.put("instantsByAction", r.archivedByAction());
    json.put("activeBefore", r.activeBefore());
    json.put("activeAfter", r.activeAfter());
    json.put("barrier", Reports.barrier(r.barrier()));
    json.put("warnings", r.warnings());
    String text =
        "archived "
            + instants
            + " instant(s) ("
            + r.archived().size()
            + " file(s)), instant files "
            + r.activeBefore()
            + " -> "
            + r.activeAfter()
            + "; selection stopped: "
            + r.barrier().message()
            + (r.warnings().isEmpty() ? "" : "; " + r.warnings().size() + " warning(s)");
    return new WarehouseRun.TableSummary(text, json, instants);
  }
}
