package io.timelinearchive.hudi1;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.client.HoodieJavaWriteClient;
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

/**
 * A small table written by Apache Hudi 1.0.1's own {@link HoodieJavaWriteClient} in its default
 * table version (8: the timeline in {@code .hoodie/timeline/}). Every commit upserts the same few
 * keys into one partition and runs the cleaner; Hudi's own archival is off, so the active timeline
 * grows past the archival settings given. No metadata table (its HFiles would need HBase) and no
 * timeline server.
 */
final class Hudi1Table implements Closeable {
  static final String TABLE_NAME = "trips";
  private static final Schema SCHEMA =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "trip", "namespace": "io.timelinearchive.hudi1",
               "fields": [
                 {"name": "key", "type": "string"},
                 {"name": "partition", "type": "string"},
                 {"name": "ts", "type": "long"},
                 {"name": "value", "type": "int"}]}
              """);
  private static final int KEYS = 4;

  private final String basePath;
  private final HoodieJavaWriteClient<HoodieAvroPayload> client;
  private long sequence;

  private Hudi1Table(String basePath, HoodieJavaWriteClient<HoodieAvroPayload> client) {
    this.basePath = basePath;
    this.client = client;
  }

  /**
   * Creates the table in {@code dir} and commits {@code commits} times.
   *
   * @return the commits' instant times
   */
  static List<String> write(
      Path dir, HoodieTableType type, Map<String, String> settings, int commits)
      throws IOException {
    List<String> times = new ArrayList<>();
    try (Hudi1Table table = create(dir, type, settings)) {
      for (int i = 0; i < commits; i++) {
        times.add(table.commit());
      }
    }
    return times;
  }

  /** Creates the table in {@code dir}, with {@code settings} (Hudi keys) over the defaults. */
  static Hudi1Table create(Path dir, HoodieTableType type, Map<String, String> settings)
      throws IOException {
    String basePath = "file://" + dir.toAbsolutePath();
    StorageConfiguration<Configuration> conf = HadoopFSUtils.getStorageConf(new Configuration());
    HoodieTableMetaClient.newTableBuilder()
        .setTableType(type)
        .setTableName(TABLE_NAME)
        .setRecordKeyFields("key")
        .setPartitionFields("partition")
        .setPreCombineField("ts")
        .setPayloadClass(HoodieAvroPayload.class)
        .initTable(conf, basePath);
    return open(dir, type, settings);
  }

  /**
   * Opens the table Hudi 1.0.1 wrote in {@code dir} again, with {@code settings} over the defaults.
   */
  static Hudi1Table open(Path dir, HoodieTableType type, Map<String, String> settings) {
    String basePath = "file://" + dir.toAbsolutePath();
    StorageConfiguration<Configuration> conf = HadoopFSUtils.getStorageConf(new Configuration());
    return new Hudi1Table(
        basePath,
        new HoodieJavaWriteClient<>(
            new HoodieJavaEngineContext(conf), writeConfig(basePath, type, settings)));
  }

  /**
   * A client on the metadata table of the table in {@code dir}, configured as Hudi 1.0.1's metadata
   * writer configures its own from the data table's {@code settings} ({@code
   * HoodieMetadataWriteUtils.createMetadataWriteConfig}).
   */
  static Hudi1Table openMetadataTable(
      Path dir, HoodieTableType type, Map<String, String> settings) {
    String basePath = "file://" + dir.toAbsolutePath();
    StorageConfiguration<Configuration> conf = HadoopFSUtils.getStorageConf(new Configuration());
    HoodieWriteConfig metadataConfig =
        HoodieMetadataWriteUtils.createMetadataWriteConfig(
            writeConfig(basePath, type, settings), HoodieFailedWritesCleaningPolicy.EAGER);
    return new Hudi1Table(
        metadataConfig.getBasePath(),
        new HoodieJavaWriteClient<>(new HoodieJavaEngineContext(conf), metadataConfig));
  }

  private static HoodieWriteConfig writeConfig(
      String basePath, HoodieTableType type, Map<String, String> settings) {
    Properties p = new Properties();
    p.put("hoodie.table.name", TABLE_NAME);
    p.put("hoodie.datasource.write.recordkey.field", "key");
    p.put("hoodie.datasource.write.partitionpath.field", "partition");
    p.put("hoodie.datasource.write.precombine.field", "ts");
    p.put("hoodie.index.type", "INMEMORY");
    p.put("hoodie.metadata.enable", "false");
    p.put("hoodie.embed.timeline.server", "false");
    p.put("hoodie.write.markers.type", "DIRECT");
    p.put("hoodie.archive.automatic", "false");
    p.put("hoodie.clean.automatic", "true");
    p.put("hoodie.auto.commit", "false");
    p.put("hoodie.compact.inline", String.valueOf(type == HoodieTableType.MERGE_ON_READ));
    p.put("hoodie.insert.shuffle.parallelism", "1");
    p.put("hoodie.upsert.shuffle.parallelism", "1");
    p.put("hoodie.cleaner.parallelism", "1");
    p.putAll(settings);
    return HoodieWriteConfig.newBuilder()
        .withPath(basePath)
        .withSchema(SCHEMA.toString())
        .forTable(TABLE_NAME)
        .withProps(p)
        .build();
  }

  /**
   * One upsert of every key, committed (on merge-on-read a delta commit, with inline compaction
   * when it is due).
   *
   * @return the commit's instant time
   */
  String commit() {
    String time = client.startCommit();
    List<WriteStatus> statuses = client.upsert(records(time), time);
    if (!client.commit(time, statuses)) {
      throw new IllegalStateException("Hudi 1.0.1 did not commit " + time);
    }
    return time;
  }

  /**
   * One insert of new keys, committed: with {@code hoodie.parquet.small.file.limit=0} each is a
   * file group of its own, which clustering can then merge.
   *
   * @return the commit's instant time
   */
  String insertCommit() {
    String time = client.startCommit();
    List<WriteStatus> statuses = client.insert(records(time, "new-" + time + "-"), time);
    if (!client.commit(time, statuses)) {
      throw new IllegalStateException("Hudi 1.0.1 did not commit " + time);
    }
    return time;
  }

  /**
   * One upsert written but never committed: an inflight commit (or deltacommit), which the next
   * {@link #commit} rolls back (Hudi's eager cleaning of failed writes).
   *
   * @return its instant time
   */
  String failedWrite() {
    String time = client.startCommit();
    client.upsert(records(time), time);
    return time;
  }

  /** A savepoint of the completed commit at {@code time}. */
  void savepoint(String time) {
    client.savepoint(time, "timeline-archive", "a test's savepoint");
  }

  /** Schedules a compaction (merge-on-read) and leaves it pending. */
  String scheduleCompaction() {
    Option<String> time = client.scheduleCompaction(Option.empty());
    if (!time.isPresent()) {
      throw new IllegalStateException("Hudi 1.0.1 scheduled no compaction");
    }
    return time.get();
  }

  /** Schedules a clustering and leaves it pending. */
  String scheduleClustering() {
    Option<String> time = client.scheduleClustering(Option.empty());
    if (!time.isPresent()) {
      throw new IllegalStateException("Hudi 1.0.1 scheduled no clustering");
    }
    return time.get();
  }

  /**
   * Runs Hudi 1.0.1's own archiver ({@code TimelineArchiverV2}) once, with this client's config.
   */
  void archive() {
    client.archive();
  }

  String basePath() {
    return basePath;
  }

  private List<HoodieRecord<HoodieAvroPayload>> records(String time) {
    return records(time, "key-");
  }

  private List<HoodieRecord<HoodieAvroPayload>> records(String time, String keyPrefix) {
    List<HoodieRecord<HoodieAvroPayload>> records = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("key", keyPrefix + k);
      r.put("partition", "p0");
      r.put("ts", ++sequence);
      r.put("value", (int) (Long.parseLong(time.substring(time.length() - 6)) + k));
      records.add(
          new HoodieAvroRecord<>(
              new HoodieKey(keyPrefix + k, "p0"), new HoodieAvroPayload(Option.of(r))));
    }
    return records;
  }

  @Override
  public void close() {
    client.close();
  }
}
