package io.timelinearchive.hudi05;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hudi.avro.model.HoodieArchivedMetaEntry;
import org.apache.hudi.common.model.HoodieArchivedLogFile;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.log.HoodieLogFormat;
import org.apache.hudi.common.table.log.block.HoodieAvroDataBlock;
import org.apache.hudi.common.table.log.block.HoodieLogBlock;
import org.apache.hudi.common.table.timeline.HoodieActiveTimeline;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.table.HoodieCommitArchiveLog;

/**
 * Hudi 0.5.3 as the tests of archive-hudi-compat call it, from a class loader of its own: every
 * method is static and takes and returns only JDK types (strings, lists, maps), since no class of
 * Hudi's or of its Avro is shared with the caller. Records cross as the text Avro's {@code
 * toString} gives them (JSON).
 */
public final class Hudi05 {
  private Hudi05() {}

  /** Writes a table with 0.5.3's timeline classes; see {@link Hudi05Tables#write}. */
  public static void writeTable(
      String basePath, String tableType, int layoutVersion, List<String> steps) throws IOException {
    Hudi05Tables.write(basePath, tableType, layoutVersion, steps);
  }

  /**
   * The instant files of the active timeline as 0.5.3 lists them (every state, no layout filter).
   */
  public static List<String> activeInstantFiles(String basePath, int layoutVersion) {
    HoodieTableMetaClient metaClient = Hudi05Tables.metaClient(basePath, layoutVersion);
    List<String> names = new ArrayList<>();
    new HoodieActiveTimeline(metaClient, false)
        .getInstants()
        .forEach(i -> names.add(i.getFileName()));
    return names;
  }

  /**
   * Runs 0.5.3's own {@link HoodieCommitArchiveLog#archive} on the instant files named, in that
   * order, with {@code hoodie.commits.archival.batch} = {@code batch}: its conversion of each file
   * to a {@link HoodieArchivedMetaEntry} and its log writer. The instant files stay in place (their
   * deletion is a separate step of 0.5.3's archiver).
   *
   * <p>{@code archiveIfRequired}, which chooses the instants and opens the writer, needs a Spark
   * context (its {@code HoodieTable} reads the Hadoop configuration from it); so the writer is
   * opened by the archiver's own {@code openWriter} and closed by its own {@code close}, through
   * reflection.
   */
  public static void archive(
      String basePath, int layoutVersion, List<String> instantFileNames, int batch)
      throws Exception {
    HoodieWriteConfig config = writeConfig(basePath, batch);
    HoodieTableMetaClient metaClient = Hudi05Tables.metaClient(basePath, layoutVersion);
    Map<String, HoodieInstant> byName = new LinkedHashMap<>();
    new HoodieActiveTimeline(metaClient, false)
        .getInstants()
        .forEach(i -> byName.put(i.getFileName(), i));
    List<HoodieInstant> instants = new ArrayList<>();
    for (String name : instantFileNames) {
      HoodieInstant instant = byName.get(name);
      if (instant == null) {
        throw new IllegalArgumentException("no instant file " + name + " in " + byName.keySet());
      }
      instants.add(instant);
    }
    HoodieCommitArchiveLog archiveLog = new HoodieCommitArchiveLog(config, metaClient);
    // the call of the archiver's own openWriter(), which is private
    Path archiveFile = HoodieArchivedTimeline.getArchiveLogPath(metaClient.getArchivePath());
    HoodieLogFormat.Writer logWriter =
        HoodieLogFormat.newWriterBuilder()
            .onParentPath(archiveFile.getParent())
            .withFileId(archiveFile.getName())
            .withFileExtension(HoodieArchivedLogFile.ARCHIVE_EXTENSION)
            .withFs(metaClient.getFs())
            .overBaseCommit("")
            .build();
    Field writer = HoodieCommitArchiveLog.class.getDeclaredField("writer");
    writer.setAccessible(true);
    writer.set(archiveLog, logWriter);
    try {
      archiveLog.archive(instants);
    } finally {
      // archive() replaces the writer with the one appendBlock returns
      ((HoodieLogFormat.Writer) writer.get(archiveLog)).close();
    }
  }

  /**
   * The write config of the archive step. {@code HoodieWriteConfig.Builder.build()} cannot run
   * without Spark: its memory defaults call {@code SparkEnv.get()} ({@code NoClassDefFoundError:
   * org/apache/spark/SparkEnv}; with spark-core_2.11 2.4.4 alone, {@code
   * org/apache/spark/network/shuffle/ShuffleClient}). The config's own constructor takes the
   * properties as they are, and the archive step reads only the batch and {@code
   * hoodie.fail.on.timeline.archiving} (0.5.3's default, true).
   */
  private static HoodieWriteConfig writeConfig(String basePath, int batch) throws Exception {
    Properties props = new Properties();
    props.setProperty("hoodie.base.path", basePath);
    props.setProperty("hoodie.table.name", Hudi05Tables.TABLE_NAME);
    props.setProperty("hoodie.commits.archival.batch", String.valueOf(batch));
    props.setProperty("hoodie.fail.on.timeline.archiving", "true");
    Constructor<HoodieWriteConfig> constructor =
        HoodieWriteConfig.class.getDeclaredConstructor(Properties.class);
    constructor.setAccessible(true);
    return constructor.newInstance(props);
  }

  /**
   * Every block of every archive file, read with 0.5.3's log reader ({@link
   * HoodieLogFormat#newReader}) under 0.5.3's {@link HoodieArchivedMetaEntry} schema: per block,
   * {@code "<file> <block type>"} followed by the JSON of each of its records.
   */
  public static List<List<String>> scanArchive(String basePath, int layoutVersion)
      throws IOException {
    HoodieTableMetaClient metaClient = Hudi05Tables.metaClient(basePath, layoutVersion);
    FileStatus[] files =
        metaClient
            .getFs()
            .globStatus(new Path(metaClient.getArchivePath() + "/.commits_.archive*"));
    List<FileStatus> sorted = new ArrayList<>(List.of(files));
    sorted.sort((a, b) -> a.getPath().getName().compareTo(b.getPath().getName()));
    List<List<String>> blocks = new ArrayList<>();
    for (FileStatus file : sorted) {
      try (HoodieLogFormat.Reader reader =
          HoodieLogFormat.newReader(
              metaClient.getFs(),
              new HoodieLogFile(file.getPath()),
              HoodieArchivedMetaEntry.getClassSchema())) {
        while (reader.hasNext()) {
          HoodieLogBlock block = reader.next();
          List<String> lines = new ArrayList<>();
          lines.add(file.getPath().getName() + " " + block.getBlockType());
          if (block instanceof HoodieAvroDataBlock data) {
            for (IndexedRecord record : data.getRecords()) {
              lines.add(record.toString());
            }
          }
          blocks.add(lines);
        }
      }
    }
    return blocks;
  }

  /**
   * What 0.5.3's {@link HoodieArchivedTimeline} holds: each instant as {@code "<time> <action>
   * <state>"}, in its order.
   */
  public static List<String> archivedInstants(String basePath, int layoutVersion) {
    HoodieArchivedTimeline archived =
        new HoodieArchivedTimeline(Hudi05Tables.metaClient(basePath, layoutVersion));
    List<String> instants = new ArrayList<>();
    archived
        .getInstants()
        .forEach(
            i -> instants.add(i.getTimestamp() + " " + i.getAction() + " " + i.getState().name()));
    return instants;
  }

  /**
   * The details 0.5.3's {@link HoodieArchivedTimeline} gives after {@code
   * loadInstantDetailsInMemory} over all times, by instant time (its details are keyed by time
   * alone); an instant without details is absent.
   */
  public static Map<String, String> archivedDetails(String basePath, int layoutVersion) {
    HoodieArchivedTimeline archived =
        new HoodieArchivedTimeline(Hudi05Tables.metaClient(basePath, layoutVersion));
    // the range is (start, end]
    archived.loadInstantDetailsInMemory("0", "99999999999999999");
    Map<String, String> details = new LinkedHashMap<>();
    archived
        .getInstants()
        .forEach(
            i ->
                archived
                    .getInstantDetails(i)
                    .map(
                        bytes ->
                            details.put(
                                i.getTimestamp(),
                                new String(bytes, java.nio.charset.StandardCharsets.UTF_8))));
    return details;
  }

  /** The file ids and paths a commit's details (its JSON, as Hudi reads it) name, by 0.5.3. */
  public static Map<String, String> filesWritten(String commitJson) throws Exception {
    return HoodieCommitMetadata.fromJsonString(commitJson, HoodieCommitMetadata.class)
        .getFileIdAndRelativePaths();
  }
}
