package io.timelinearchive.hudicompat;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.HoodieTimelineArchiver;
import org.apache.hudi.client.WriteStatus;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.model.HoodieAvroPayload;
import org.apache.hudi.common.model.HoodieAvroRecord;
import org.apache.hudi.common.model.HoodieFailedWritesCleaningPolicy;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.metadata.HoodieMetadataWriteUtils;
import org.apache.hudi.storage.StorageConfiguration;
import org.apache.hudi.table.HoodieJavaTable;

/**
 * A small table written by Apache Hudi 0.15's own {@link HoodieJavaWriteClient}, with the settings
 * that make it write reliably on a local disk or HDFS (docs/HUDI-FORMAT.md §6): no metadata table,
 * no timeline server, direct markers, archival off while writing, cleaning on. Every write is an
 * upsert of the same few keys into one partition, so each commit replaces file versions the cleaner
 * can then remove.
 */
final class HudiTable implements Closeable {
  static final String TABLE_NAME = "trips";
  private static final Schema SCHEMA =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "trip", "namespace": "io.timelinearchive.hudicompat",
               "fields": [
                 {"name": "key", "type": "string"},
                 {"name": "partition", "type": "string"},
                 {"name": "ts", "type": "long"},
                 {"name": "value", "type": "int"}]}
              """);
  private static final int KEYS = 4;

  private final String basePath;
  private final HoodieTableType type;
  private final Map<String, String> settings;
  private final StorageConfiguration<Configuration> storageConf;
  private final HoodieJavaEngineContext context;
  private HoodieJavaWriteClient<HoodieAvroPayload> client;
  private long sequence;

  private HudiTable(
      String basePath,
      HoodieTableType type,
      Map<String, String> settings,
      Configuration hadoopConf) {
    this.basePath = requireNonNull(basePath, "basePath is null");
    this.type = requireNonNull(type, "type is null");
    this.settings = Map.copyOf(settings);
    this.storageConf = HadoopFSUtils.getStorageConf(hadoopConf);
    this.context = new HoodieJavaEngineContext(storageConf);
  }

  /** The archival and cleaning settings the tests use, by Hudi's keys (ours read the same keys). */
  static Map<String, String> archivalSettings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("hoodie.keep.min.commits", "4");
    s.put("hoodie.keep.max.commits", "6");
    // several blocks per archive file
    s.put("hoodie.commits.archival.batch", "4");
    s.put("hoodie.cleaner.policy", "KEEP_LATEST_COMMITS");
    s.put("hoodie.cleaner.commits.retained", "2");
    s.put("hoodie.compact.inline.max.delta.commits", "3");
    return s;
  }

  /** Creates the table at {@code basePath} (a {@code file:} or {@code hdfs:} URI). */
  static HudiTable create(
      String basePath,
      HoodieTableType type,
      Map<String, String> archivalSettings,
      Configuration hadoopConf)
      throws IOException {
    HudiTable table = new HudiTable(basePath, type, archivalSettings, hadoopConf);
    HoodieTableMetaClient.withPropertyBuilder()
        .setTableType(type)
        .setTableName(TABLE_NAME)
        .setRecordKeyFields("key")
        .setPartitionFields("partition")
        .setPreCombineField("ts")
        .setPayloadClass(HoodieAvroPayload.class)
        .setTimelineLayoutVersion(1)
        .initTable(table.storageConf, basePath);
    return table;
  }

  /** Opens an existing table written by {@link #create}. */
  static HudiTable open(
      String basePath,
      HoodieTableType type,
      Map<String, String> archivalSettings,
      Configuration hadoopConf) {
    return new HudiTable(basePath, type, archivalSettings, hadoopConf);
  }

  static HudiTable create(Path dir, HoodieTableType type, Map<String, String> archivalSettings)
      throws IOException {
    return create(uri(dir), type, archivalSettings, new Configuration());
  }

  static HudiTable open(Path dir, HoodieTableType type, Map<String, String> archivalSettings) {
    return open(uri(dir), type, archivalSettings, new Configuration());
  }

  /** {@code file:///abs/path}, without the trailing slash {@link Path#toUri} gives folders. */
  static String uri(Path dir) {
    return "file://" + dir.toAbsolutePath();
  }

  String basePath() {
    return basePath;
  }

  HoodieTableType type() {
    return type;
  }

  /** The write client's settings: {@code archivalSettings} over the writing defaults. */
  HoodieWriteConfig writeConfig(boolean autoArchive) {
    Properties p = new Properties();
    p.put("hoodie.table.name", TABLE_NAME);
    p.put("hoodie.datasource.write.recordkey.field", "key");
    p.put("hoodie.datasource.write.partitionpath.field", "partition");
    p.put("hoodie.datasource.write.precombine.field", "ts");
    p.put("hoodie.index.type", "INMEMORY");
    p.put("hoodie.metadata.enable", "false");
    p.put("hoodie.embed.timeline.server", "false");
    p.put("hoodie.write.markers.type", "DIRECT");
    p.put("hoodie.archive.automatic", String.valueOf(autoArchive));
    p.put("hoodie.clean.automatic", "true");
    p.put("hoodie.auto.commit", "false");
    p.put("hoodie.compact.inline", String.valueOf(type == HoodieTableType.MERGE_ON_READ));
    p.put("hoodie.insert.shuffle.parallelism", "1");
    p.put("hoodie.upsert.shuffle.parallelism", "1");
    p.put("hoodie.delete.shuffle.parallelism", "1");
    p.put("hoodie.bulkinsert.shuffle.parallelism", "1");
    p.put("hoodie.cleaner.parallelism", "1");
    p.put("hoodie.archive.delete.parallelism", "1");
    p.putAll(settings);
    return HoodieWriteConfig.newBuilder()
        .withPath(basePath)
        .withSchema(SCHEMA.toString())
        .forTable(TABLE_NAME)
        .withProps(p)
        .build();
  }

  private HoodieJavaWriteClient<HoodieAvroPayload> client() {
    if (client == null) {
      client = new HoodieJavaWriteClient<>(context, writeConfig(false));
    }
    return client;
  }

  /**
   * One upsert of every key, committed; the commit also runs the cleaner and, on merge-on-read,
   * inline compaction when it is due.
   *
   * @return the commit's instant time
   */
  String commit() {
    String time = client().startCommit();
    List<WriteStatus> statuses = client().upsert(records(time), time);
    if (!client().commit(time, statuses)) {
      throw new IllegalStateException("Hudi did not commit " + time);
    }
    return time;
  }

  /** An upsert that is never committed: a failed write, left inflight. */
  String failedWrite() {
    String time = client().startCommit();
    client().upsert(records(time), time);
    return time;
  }

  /** Rolls a failed write back, leaving a rollback instant. */
  void rollback(String time) {
    if (!client().rollback(time)) {
      throw new IllegalStateException("Hudi did not roll back " + time);
    }
  }

  void savepoint(String time) {
    client().savepoint(time, "timeline-archive", "interop test");
  }

  /** Schedules a compaction (merge-on-read) without running it: a pending compaction. */
  String scheduleCompaction() {
    return client()
        .scheduleCompaction(Option.empty())
        .orElseThrow(() -> new IllegalStateException("Hudi scheduled no compaction"));
  }

  void deleteSavepoint(String time) {
    client().deleteSavepoint(time);
  }

  /**
   * One run of Hudi's own archiver, on a fresh view of the table, as the write client runs it.
   *
   * @return whether Hudi reports success
   */
  boolean archiveWithHudi() throws IOException {
    closeClient();
    HoodieWriteConfig config = writeConfig(true);
    HoodieJavaTable<HoodieAvroPayload> table =
        HoodieJavaTable.create(config, context, metaClient());
    HoodieTimelineArchiver<HoodieAvroPayload, ?, ?, ?> archiver =
        new HoodieTimelineArchiver<>(config, table);
    return archiver.archiveIfRequired(context);
  }

  /**
   * One run of Hudi's own archiver on this table's metadata table, with the write config Hudi
   * derives for the metadata table's writer from this table's (as the data writer runs it after
   * each commit).
   */
  boolean archiveMetadataTableWithHudi() throws IOException {
    closeClient();
    HoodieWriteConfig config =
        HoodieMetadataWriteUtils.createMetadataWriteConfig(
            writeConfig(true), HoodieFailedWritesCleaningPolicy.EAGER);
    HoodieTableMetaClient metadataClient =
        HoodieTableMetaClient.builder()
            .setConf(storageConf)
            .setBasePath(basePath + "/.hoodie/metadata")
            .build();
    HoodieJavaTable<HoodieAvroPayload> table =
        HoodieJavaTable.create(config, context, metadataClient);
    HoodieTimelineArchiver<HoodieAvroPayload, ?, ?, ?> archiver =
        new HoodieTimelineArchiver<>(config, table);
    return archiver.archiveIfRequired(context);
  }

  /** Hudi's archiver writing its {@code mergeArchivePlan}, as it does before merging. */
  void buildArchiveMergePlanWithHudi(
      List<String> candidates, org.apache.hudi.storage.StoragePath planPath, String mergedFile)
      throws IOException {
    closeClient();
    HoodieWriteConfig config = writeConfig(true);
    HoodieJavaTable<HoodieAvroPayload> table =
        HoodieJavaTable.create(config, context, metaClient());
    new HoodieTimelineArchiver<>(config, table)
        .buildArchiveMergePlan(candidates, planPath, mergedFile);
  }

  HoodieTableMetaClient metaClient() {
    return HoodieTableMetaClient.builder().setConf(storageConf).setBasePath(basePath).build();
  }

  private List<HoodieRecord<HoodieAvroPayload>> records(String time) {
    List<HoodieRecord<HoodieAvroPayload>> records = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("key", "key-" + k);
      r.put("partition", "p0");
      r.put("ts", ++sequence);
      r.put("value", (int) (Long.parseLong(time.substring(time.length() - 6)) + k));
      records.add(
          new HoodieAvroRecord<>(
              new HoodieKey("key-" + k, "p0"), new HoodieAvroPayload(Option.of(r))));
    }
    return records;
  }

  void closeClient() {
    if (client != null) {
      client.close();
      client = null;
    }
  }

  @Override
  public void close() {
    closeClient();
  }
}
