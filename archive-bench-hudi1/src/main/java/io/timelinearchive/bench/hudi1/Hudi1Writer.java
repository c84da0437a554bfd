package io.timelinearchive.bench.hudi1;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
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
 * A small copy-on-write table written by Apache Hudi 1.0.1's own {@link HoodieJavaWriteClient} in
 * its default table version (8, the timeline in {@code .hoodie/timeline/}), in a process of its
 * own: {@code DIR COMMITS}. The narrow shape of archive-bench's 0.15 tables: 4 keys in one
 * partition upserted by each commit, Hudi's inline cleaner after every commit (keeping 2), archival
 * off, no metadata table, as archive-bench's {@code HudiWriter} writes them with Hudi 0.15.
 */
public final class Hudi1Writer {
  static final String TABLE_NAME = "trips";
  private static final int KEYS = 4;

  private Hudi1Writer() {}

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      throw new IllegalArgumentException("usage: DIR COMMITS");
    }
    Path dir = Path.of(args[0]);
    if (Files.exists(dir)) {
      throw new IllegalArgumentException(dir + " exists");
    }
    write(dir, Integer.parseInt(args[1]));
    System.exit(0);
  }

  static void write(Path dir, int commits) throws Exception {
    String basePath = "file://" + dir.toAbsolutePath();
    StorageConfiguration<Configuration> conf = HadoopFSUtils.getStorageConf(new Configuration());
    HoodieTableMetaClient.newTableBuilder()
        .setTableType(HoodieTableType.COPY_ON_WRITE)
        .setTableName(TABLE_NAME)
        .setRecordKeyFields("key")
        .setPartitionFields("partition")
        .setPreCombineField("ts")
        .setPayloadClass(HoodieAvroPayload.class)
        .initTable(conf, basePath);
    Schema schema =
        SchemaBuilder.record("trip")
            .namespace("io.timelinearchive.bench")
            .fields()
            .requiredString("key")
            .requiredString("partition")
            .requiredLong("ts")
            .requiredLong("metric_0")
            .endRecord();
    long sequence = 0;
    try (HoodieJavaWriteClient<HoodieAvroPayload> client =
        new HoodieJavaWriteClient<>(
            new HoodieJavaEngineContext(conf), writeConfig(basePath, schema))) {
      for (int commit = 0; commit < commits; commit++) {
        String time = client.startCommit();
        List<HoodieRecord<HoodieAvroPayload>> records = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) {
          String key = "key-0-" + k;
          GenericRecord r = new GenericData.Record(schema);
          r.put("key", key);
          r.put("partition", "p0");
          r.put("ts", ++sequence);
          r.put("metric_0", sequence * 31);
          records.add(
              new HoodieAvroRecord<>(
                  new HoodieKey(key, "p0"), new HoodieAvroPayload(Option.of(r))));
        }
        List<WriteStatus> statuses = client.upsert(records, time);
        if (!client.commit(time, statuses)) {
          throw new IllegalStateException("Hudi 1.0.1 did not commit " + time + " in " + dir);
        }
      }
    }
  }

  /** Hudi 0.15's bench settings, in 1.0.1's keys and their older names alike. */
  private static HoodieWriteConfig writeConfig(String basePath, Schema schema) {
    Properties p = Hudi1.clientProperties(TABLE_NAME);
    p.put("hoodie.datasource.write.recordkey.field", "key");
    p.put("hoodie.datasource.write.partitionpath.field", "partition");
    p.put("hoodie.datasource.write.precombine.field", "ts");
    p.put("hoodie.archive.automatic", "false");
    p.put("hoodie.clean.automatic", "true");
    p.put("hoodie.auto.commit", "false");
    p.put("hoodie.cleaner.policy", "KEEP_LATEST_COMMITS");
    p.put("hoodie.clean.policy", "KEEP_LATEST_COMMITS");
    p.put("hoodie.cleaner.commits.retained", "2");
    p.put("hoodie.clean.commits.retained", "2");
    p.put("hoodie.keep.min.commits", "3");
    p.put("hoodie.keep.max.commits", "4");
    p.put("hoodie.insert.shuffle.parallelism", "1");
    p.put("hoodie.upsert.shuffle.parallelism", "1");
    p.put("hoodie.cleaner.parallelism", "1");
    return HoodieWriteConfig.newBuilder()
        .withPath(basePath)
        .withSchema(schema.toString())
        .forTable(TABLE_NAME)
        .withProps(p)
        .build();
  }
}
