package io.timelinearchive.cli;

import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchivedInstant;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import io.timelinearchive.timeline.HoodieTable;
import io.timelinearchive.timeline.TimelineFormat;
import io.timelinearchive.timeline.TimelineInstant;
import io.timelinearchive.timeline.UnsupportedTableException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    name = "show",
    description = "List instants, one line per state file: <time> <action> <state>, then a count.",
    subcommands = {ShowCommand.Active.class, ShowCommand.Archived.class})
final class ShowCommand {
  @ParentCommand TimelineArchiveCommand root;

  /** Settings for the storage backend only. */
  static final class StorageOptions {
    @Option(
        names = "--conf",
        paramLabel = "KEY=VALUE",
        description = "A storage backend setting (s3.endpoint, ...). Repeatable.")
    List<String> conf = new ArrayList<>();

    Map<String, String> config(CommandSpec spec) {
      return ConfOptions.parse(conf, spec);
    }
  }

  @Command(
      name = "active",
      mixinStandardHelpOptions = true,
      versionProvider = TimelineArchiveCommand.Version.class,
      description =
          "The instants of the active timeline (.hoodie/; Hudi 1.x: .hoodie/timeline/, with each"
              + " completed instant's completion time).")
  static final class Active implements Callable<Integer> {
    @ParentCommand ShowCommand show;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "TABLE_URI")
    String table;

    @picocli.CommandLine.Mixin StorageOptions storageOptions;

    @picocli.CommandLine.Mixin InstantFilter filter;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      filter.check();
      StorageLocation base = StorageLocation.of(table);
      try (MetaStorage storage = MetaStorages.open(base, storageOptions.config(spec))) {
        HoodieTable hoodieTable = HoodieTable.inspect(storage, base);
        if (hoodieTable.format() == TimelineFormat.HUDI_1_LSM) {
          requireHudi1Reader(hoodieTable);
          Hudi1Show.active(storage, hoodieTable, filter, show.root.json, out, err);
          return TimelineArchiveCommand.EXIT_OK;
        }
        ActiveListing active = ActiveListing.load(storage, hoodieTable.metaFolder());
        List<TimelineInstant> matching = filter.matching(active.instants(), i -> i);
        List<TimelineInstant> listed = filter.limited(matching);
        if (show.root.json) {
          Map<String, Object> json = Reports.document(base.toString());
          Reports.putInstantFiles(json, listed);
          json.put("instantFilesMatched", matching.size());
          json.put(
              "malformed",
              active.malformed().stream()
                  .map(m -> Reports.malformed(m.name(), m.reason()))
                  .toList());
          Output.json(out, json);
        } else {
          Output.lines(out, listed);
          out.println(count(listed, matching) + " in the active timeline");
          out.flush();
          // Standard error, so that standard output stays instant lines and the count.
          for (ActiveListing.Malformed m : active.malformed()) {
            err.println(
                "warning: not an instant, left alone: "
                    + hoodieTable.metaFolder().resolve(m.name())
                    + " ("
                    + m.reason()
                    + ")");
          }
          err.flush();
        }
      }
      return TimelineArchiveCommand.EXIT_OK;
    }
  }

  /**
   * Checks that this jar reads Hudi 1.x tables: the one-store jars without Hadoop leave out
   * archive-lsm and Parquet, which decompresses through Hadoop's codecs.
   *
   * @throws UnsupportedTableException naming the jars that do
   */
  static void requireHudi1Reader(HoodieTable table) throws UnsupportedTableException {
    ClassLoader loader = ShowCommand.class.getClassLoader();
    for (String needed :
        List.of(
            "io.timelinearchive.lsm.LsmHistory",
            "org.apache.parquet.hadoop.ParquetFileReader",
            "org.apache.hadoop.conf.Configuration")) {
      try {
        Class.forName(needed, false, loader);
      } catch (ClassNotFoundException e) {
        throw new UnsupportedTableException(
            table.base()
                + " is a Hudi 1.x table, which this jar does not read (it holds no "
                + needed
                + "): use timeline-archive.jar or timeline-archive-hdfs.jar; nothing was changed");
      }
    }
  }

  /** "39 instant file(s)", or "listed 5 of 39 instant file(s)" under {@code --limit}. */
  static String count(List<?> listed, List<?> matching) {
    return (listed.size() == matching.size() ? "" : "listed " + listed.size() + " of ")
        + matching.size()
        + " instant file(s)";
  }

  @Command(
      name = "archived",
      mixinStandardHelpOptions = true,
      versionProvider = TimelineArchiveCommand.Version.class,
      description =
          "The instants in the archive (.hoodie/archived/; Hudi 1.x: the LSM history in"
              + " .hoodie/timeline/history/, completed instants with their completion times).")
  static final class Archived implements Callable<Integer> {
    @ParentCommand ShowCommand show;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "TABLE_URI")
    String table;

    @Option(
        names = "--from",
        paramLabel = "TS",
        description = "Only instants at or after this time.")
    String from;

    @Option(
        names = "--to",
        paramLabel = "TS",
        description = "Only instants at or before this time.")
    String to;

    @Option(names = "--details", description = "Also print each instant's archived metadata.")
    boolean details;

    @picocli.CommandLine.Mixin StorageOptions storageOptions;

    @picocli.CommandLine.Mixin InstantFilter filter;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      // Checked before the table is touched: a bad range is a usage error on any table.
      ArchiveReadOptions options =
          new ArchiveReadOptions(Optional.ofNullable(from), Optional.ofNullable(to), details);
      filter.check();
      StorageLocation base = StorageLocation.of(table);
      try (MetaStorage storage = MetaStorages.open(base, storageOptions.config(spec))) {
        HoodieTable hoodieTable = HoodieTable.inspect(storage, base);
        if (hoodieTable.format() == TimelineFormat.HUDI_1_LSM) {
          requireHudi1Reader(hoodieTable);
          Hudi1Show.archived(storage, hoodieTable, options, filter, show.root.json, out);
          return TimelineArchiveCommand.EXIT_OK;
        }
        ArchivedTimeline archived =
            ArchivedTimeline.load(storage, hoodieTable.archiveFolder(), options);
        List<ArchivedInstant> matching =
            filter.matching(archived.instants(), ArchivedInstant::instant);
        List<ArchivedInstant> listed = filter.limited(matching);
        if (show.root.json) {
          Map<String, Object> json = Reports.document(base.toString());
          List<Object> instants = new ArrayList<>();
          for (ArchivedInstant a : listed) {
            instants.add(Reports.archivedInstant(a, details));
          }
          json.put("instantFiles", instants);
          json.put(
              "instants",
              Reports.instantCount(listed.stream().map(ArchivedInstant::instant).toList()));
          json.put("instantFilesMatched", matching.size());
          json.put("archiveFiles", archived.files().stream().map(Reports::archiveFile).toList());
          Output.json(out, json);
        } else {
          for (ArchivedInstant a : listed) {
            out.println(Output.line(a.instant()));
            if (details) {
              out.println("  " + Output.compactJson(Reports.details(a)));
            }
          }
          out.println(count(listed, matching) + " in the archive");
        }
      }
      return TimelineArchiveCommand.EXIT_OK;
    }
  }
}
