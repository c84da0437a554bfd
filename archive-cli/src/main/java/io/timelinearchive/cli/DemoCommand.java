package io.timelinearchive.cli;

import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.ActiveTimeline;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineFile;
import io.timelinearchive.timeline.TimelineInstant;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
    name = "demo",
    description =
        "Write a sample Hudi table on local disk, archive it with the default settings, and read"
            + " the archive back.")
final class DemoCommand implements Callable<Integer> {
  @ParentCommand TimelineArchiveCommand root;
  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "DIR",
      arity = "0..1",
      description = "An empty or missing folder for the table (default: a new temporary folder).")
  Path dir;

  @Option(
      names = "--no-archive",
      description =
          "Write the sample table and stop: it still needs archiving, for trying plan and"
              + " archive on it.")
  boolean noArchive;

  @picocli.CommandLine.Mixin ProgressOption progress;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Path folder = dir == null ? Files.createTempDirectory("timeline-archive-demo-") : dir;
    if (Files.exists(folder) && !Files.isDirectory(folder)) {
      throw new IllegalArgumentException(
          "demo folder " + folder.toAbsolutePath() + " is a file; give an empty or new folder");
    }
    Files.createDirectories(folder);
    try (var children = Files.list(folder)) {
      if (children.findAny().isPresent()) {
        throw new IllegalArgumentException(
            "demo folder "
                + folder.toAbsolutePath()
                + " is not empty; give an empty or new folder");
      }
    }
    StorageLocation base = StorageLocation.of(folder.toAbsolutePath().toString());
    Map<String, String> config = Map.of();
    SampleTable.Written table;
    try (MetaStorage storage = MetaStorages.open(base, config)) {
      table = SampleTable.write(storage, base, SampleTable.Spec.demo());
    }
    if (noArchive) {
      printWritten(out, base, folder, table);
      return TimelineArchiveCommand.EXIT_OK;
    }
    ArchiveResult result;
    try (TimelineArchiver archiver =
        TimelineArchiver.open(
            base.toString(), config, ProgressListener.of(progress, spec.commandLine().getErr()))) {
      result = archiver.archiveIfRequired();
    }
    Set<TimelineInstant> active = new HashSet<>();
    ArchivedTimeline archived;
    try (MetaStorage storage = MetaStorages.open(base, config)) {
      HoodieTable hoodieTable = HoodieTable.load(storage, base);
      ActiveTimeline.load(storage, hoodieTable.metaFolder()).files().stream()
          .map(TimelineFile::instant)
          .forEach(active::add);
      archived =
          ArchivedTimeline.load(
              storage, hoodieTable.archiveFolder(), ArchiveReadOptions.metadataOnly());
    }
    Set<TimelineInstant> archivedSet = new HashSet<>();
    archived.instants().forEach(a -> archivedSet.add(a.instant()));
    Set<TimelineInstant> original = new HashSet<>(table.files().values());
    Set<TimelineInstant> union = new HashSet<>(active);
    union.addAll(archivedSet);
    boolean complete = union.equals(original);

    if (root.json) {
      Map<String, Object> json = Reports.document(base.toString());
      json.put("instantFilesWritten", original.size());
      json.put("instantsByAction", table.instantsByAction());
      json.put("result", Reports.result(base.toString(), result));
      json.put("archiveReadBack", readBack(archived));
      json.put("everyInstantFileKept", complete);
      Output.json(out, json);
    } else {
      out.println("sample table: " + folder.toAbsolutePath());
      out.println(
          "wrote "
              + original.size()
              + " instant files, instants by action: "
              + table.instantsByAction());
      out.println();
      out.println("archiving with the default settings (hoodie.keep.min.commits=20, max=30)");
      Reports.printResult(out, result);
      out.println();
      out.println("reading the archive back:");
      Map<String, Object> summary = readBack(archived);
      out.println(
          "  "
              + archived.instants().size()
              + " instant files in "
              + archived.files().size()
              + " archive file(s), from "
              + summary.get("oldest")
              + " to "
              + summary.get("newest"));
      out.println("  by action and state: " + summary.get("byActionAndState"));
      out.println("  active timeline now: " + active.size() + " instant files");
      out.println(
          complete
              ? "  check: every instant file written is in the active timeline or the archive"
              : "  CHECK FAILED: active + archive differ from what was written");
      out.println();
      printNext(
          out,
          List.of(
              "show archived " + folder.toAbsolutePath() + " --limit 10",
              "show archived " + folder.toAbsolutePath() + " --action clean --details",
              "show active " + folder.toAbsolutePath() + " --state completed",
              "plan " + folder.toAbsolutePath()));
      out.println(
          "for a sample table that still needs archiving, to try plan and archive on: "
              + "timeline-archive demo --no-archive");
    }
    out.flush();
    return complete ? TimelineArchiveCommand.EXIT_OK : TimelineArchiveCommand.EXIT_FAILURE;
  }

  /** What {@code --no-archive} prints: the table written and what to run on it. */
  private void printWritten(
      PrintWriter out, StorageLocation base, Path folder, SampleTable.Written table) {
    if (root.json) {
      Map<String, Object> json = Reports.document(base.toString());
      json.put("instantFilesWritten", table.files().size());
      json.put("instantsByAction", table.instantsByAction());
      Output.json(out, json);
      return;
    }
    out.println("sample table: " + folder.toAbsolutePath());
    out.println(
        "wrote "
            + table.files().size()
            + " instant files, instants by action: "
            + table.instantsByAction());
    out.println("not archived (--no-archive)");
    out.println();
    String path = folder.toAbsolutePath().toString();
    printNext(
        out,
        List.of(
            "plan " + path,
            "plan " + path + " --list",
            "archive " + path + " --dry-run --min 10 --max 15",
            "archive " + path,
            "show archived " + path + " --limit 10"));
    out.flush();
  }

  private static void printNext(PrintWriter out, List<String> commands) {
    out.println("next, try:");
    commands.forEach(c -> out.println("  timeline-archive " + c));
  }

  private static Map<String, Object> readBack(ArchivedTimeline archived) {
    Map<String, Integer> byActionAndState = new TreeMap<>();
    for (ArchivedInstant a : archived.instants()) {
      byActionAndState.merge(
          a.instant().action().actionName() + "/" + a.instant().state(), 1, Integer::sum);
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("instantFileCount", archived.instants().size());
    m.put("archiveFiles", archived.files().stream().map(Reports::archiveFile).toList());
    m.put(
        "oldest",
        archived.instants().isEmpty() ? null : archived.instants().get(0).instant().time());
    m.put(
        "newest",
        archived.instants().isEmpty()
            ? null
            : archived.instants().get(archived.instants().size() - 1).instant().time());
    m.put("byActionAndState", byActionAndState);
    return m;
  }
}
