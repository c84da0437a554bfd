package io.timelinearchive.bench;

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
 * A small copy-on-write table written by Apache Hudi 0.15's own {@link HoodieJavaWriteClient}:
 * upserts of the same keys, each committed, with Hudi's inline cleaner after every commit once it
 * has something to clean; archival off. The narrow shape has 4 keys in one partition; the wide one
 * a 200-column schema and one key in each of 200 partitions, so that each commit carries the schema
 * in {@code extraMetadata.schema} and 200 write stats, as Spark-written commits do.
 */
final class HudiWriter {
  static final String TABLE_NAME = "trips";

  /**
   * @param columns the schema's columns besides key, partition and ts
   * @param partitions one key per partition (the narrow shape: 1 partition, 4 keys)
   */
  record Shape(String name, int columns, int partitions, int keysPerPartition, int commits) {
    static final Shape NARROW = new Shape("narrow", 1, 1, 4, 12);
    static final Shape WIDE = new Shape("wide", 197, 200, 1, 6);

    Schema schema() {
      SchemaBuilder.FieldAssembler<Schema> fields =
          SchemaBuilder.record("trip")
              .namespace("io.timelinearchive.bench")
              .fields()
              .requiredString("key")
              .requiredString("partition")
              .requiredLong("ts");
      for (int c = 0; c < columns; c++) {
        fields = fields.requiredLong("metric_" + c);
      }
      return fields.endRecord();
    }
  }

  private HudiWriter() {}

  /** Writes {@code shape}'s table at {@code dir} (which must not exist). */
  static void write(Path dir, Shape shape) throws Exception {
    String basePath = "file://" + dir.toAbsolutePath();
    StorageConfiguration<Configuration> conf = HadoopFSUtils.getStorageConf(new Configuration());
    HoodieTableMetaClient.withPropertyBuilder()
        .setTableType(HoodieTableType.COPY_ON_WRITE)
        .setTableName(TABLE_NAME)
        .setRecordKeyFields("key")
        .setPartitionFields("partition")
        .setPreCombineField("ts")
        .setPayloadClass(HoodieAvroPayload.class)
        .setTimelineLayoutVersion(1)
        .initTable(conf, basePath);
    Schema schema = shape.schema();
    long sequence = 0;
    try (HoodieJavaWriteClient<HoodieAvroPayload> client =
        new HoodieJavaWriteClient<>(
            new HoodieJavaEngineContext(conf), writeConfig(basePath, schema))) {
      for (int commit = 0; commit < shape.commits(); commit++) {
        String time = client.startCommit();
        List<HoodieRecord<HoodieAvroPayload>> records = new ArrayList<>();
        for (int p = 0; p < shape.partitions(); p++) {
          for (int k = 0; k < shape.keysPerPartition(); k++) {
            String key = "key-" + p + "-" + k;
            String partition = "p" + p;
            GenericRecord r = new GenericData.Record(schema);
            r.put("key", key);
            r.put("partition", partition);
            r.put("ts", ++sequence);
            for (int c = 0; c < shape.columns(); c++) {
              r.put("metric_" + c, sequence * 31 + c);
            }
            records.add(
                new HoodieAvroRecord<>(
                    new HoodieKey(key, partition), new HoodieAvroPayload(Option.of(r))));
          }
        }
        List<WriteStatus> statuses = client.upsert(records, time);
        if (!client.commit(time, statuses)) {
          throw new IllegalStateException("Hudi did not commit " + time + " in " + dir);
        }
      }
    }
  }

  /** Writing settings: Hudi's local-disk ones, archival off, an inline clean keeping 2 commits. */
  private static HoodieWriteConfig writeConfig(String basePath, Schema schema) {
    Properties p = Hudi.clientProperties(TABLE_NAME);
    p.put("hoodie.datasource.write.recordkey.field", "key");
    p.put("hoodie.datasource.write.partitionpath.field", "partition");
    p.put("hoodie.datasource.write.precombine.field", "ts");
    p.put("hoodie.archive.automatic", "false");
    p.put("hoodie.clean.automatic", "true");
    p.put("hoodie.auto.commit", "false");
    p.put("hoodie.cleaner.policy", "KEEP_LATEST_COMMITS");
    p.put("hoodie.cleaner.commits.retained", "2");
    p.put("hoodie.keep.min.commits", "3");
    p.put("hoodie.keep.max.commits", "4");
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
