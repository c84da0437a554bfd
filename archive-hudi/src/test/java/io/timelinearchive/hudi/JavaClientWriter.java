package io.timelinearchive.hudi;

import static java.util.Objects.requireNonNull;

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
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.storage.StorageConfiguration;

/**
 * A Hudi 0.15 {@link HoodieJavaWriteClient} writing a small table as a user's job would, with our
 * callback among its options: each commit upserts a few keys of one partition, so the cleaner has
 * old file versions to remove and, on merge-on-read, inline compaction has log files to merge.
 */
final class JavaClientWriter implements Closeable {
  private static final String TABLE_NAME = "rides";
  private static final Schema SCHEMA =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "ride", "namespace": "io.timelinearchive.hudi",
               "fields": [
                 {"name": "id", "type": "string"},
                 {"name": "city", "type": "string"},
                 {"name": "ts", "type": "long"}]}
              """);
  private static final int KEYS = 3;

  private final String basePath;
  private final HoodieWriteConfig writeConfig;
  private final StorageConfiguration<Configuration> storageConf;
  private final HoodieJavaWriteClient<HoodieAvroPayload> client;
  private long sequence;

  private JavaClientWriter(String basePath, HoodieTableType type, Map<String, String> options) {
    this.basePath = basePath;
    this.storageConf = HadoopFSUtils.getStorageConf(new Configuration());
    this.writeConfig = writeConfig(basePath, type, options);
    this.client =
        new HoodieJavaWriteClient<>(new HoodieJavaEngineContext(storageConf), writeConfig);
  }

  /** Creates the table in {@code dir} and a writer with {@code options} over the defaults below. */
  static JavaClientWriter create(Path dir, HoodieTableType type, Map<String, String> options)
      throws IOException {
    String basePath = uri(dir);
    HoodieTableMetaClient.withPropertyBuilder()
        .setTableType(type)
        .setTableName(TABLE_NAME)
        .setRecordKeyFields("id")
        .setPartitionFields("city")
        .setPreCombineField("ts")
        .setPayloadClass(HoodieAvroPayload.class)
        .setTimelineLayoutVersion(1)
        .initTable(HadoopFSUtils.getStorageConf(new Configuration()), basePath);
    return new JavaClientWriter(basePath, type, options);
  }

  /**
   * The keys a user sets to archive with our callback instead of Hudi's archiver, with the
   * retention of the tests: min 5, max 10 commits, the cleaner keeping 2.
   */
  static Map<String, String> callbackOptions() {
    return Map.of(
        "hoodie.write.commit.callback.on", "true",
        "hoodie.write.commit.callback.class", TimelineArchiveCommitCallback.class.getName(),
        "hoodie.archive.automatic", "false",
        "hoodie.keep.min.commits", "5",
        "hoodie.keep.max.commits", "10",
        "hoodie.cleaner.commits.retained", "2",
        "hoodie.compact.inline.max.delta.commits", "3");
  }

  private static HoodieWriteConfig writeConfig(
      String basePath, HoodieTableType type, Map<String, String> options) {
    Properties p = new Properties();
    p.put("hoodie.datasource.write.recordkey.field", "id");
    p.put("hoodie.datasource.write.partitionpath.field", "city");
    p.put("hoodie.datasource.write.precombine.field", "ts");
    p.put("hoodie.index.type", "INMEMORY");
    p.put("hoodie.metadata.enable", "false");
    p.put("hoodie.embed.timeline.server", "false");
    p.put("hoodie.write.markers.type", "DIRECT");
    p.put("hoodie.clean.automatic", "true");
    p.put("hoodie.auto.commit", "false");
    p.put("hoodie.compact.inline", String.valueOf(type == HoodieTableType.MERGE_ON_READ));
    p.put("hoodie.upsert.shuffle.parallelism", "1");
    p.put("hoodie.insert.shuffle.parallelism", "1");
    p.put("hoodie.cleaner.parallelism", "1");
    p.putAll(options);
    return HoodieWriteConfig.newBuilder()
        .withPath(basePath)
        .withSchema(SCHEMA.toString())
        .forTable(TABLE_NAME)
        .withProps(p)
        .build();
  }

  static String uri(Path dir) {
    return "file://" + dir.toAbsolutePath();
  }

  String basePath() {
    return basePath;
  }

  /** The writer's properties as the callback reads them. */
  Map<String, String> properties() {
    return TimelineArchiveCommitCallback.properties(writeConfig.getProps());
  }

  /**
   * One upsert of every key, committed; Hudi then cleans, compacts when due, and calls the
   * callback.
   *
   * @return the commit's instant time
   */
  String commit() {
    String time = client.startCommit();
    List<WriteStatus> statuses = client.upsert(records(), time);
    if (!client.commit(time, statuses)) {
      throw new IllegalStateException("Hudi did not commit " + time);
    }
    return time;
  }

  HoodieTableMetaClient metaClient() {
    return HoodieTableMetaClient.builder().setConf(storageConf).setBasePath(basePath).build();
  }

  private List<HoodieRecord<HoodieAvroPayload>> records() {
    List<HoodieRecord<HoodieAvroPayload>> records = new ArrayList<>();
    for (int k = 0; k < KEYS; k++) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("id", "ride-" + k);
      r.put("city", "lyon");
      r.put("ts", ++sequence);
      records.add(
          new HoodieAvroRecord<>(
              new HoodieKey("ride-" + k, "lyon"), new HoodieAvroPayload(Option.of(r))));
    }
    return records;
  }

  @Override
  public void close() {
    requireNonNull(client, "client is null").close();
  }
}
