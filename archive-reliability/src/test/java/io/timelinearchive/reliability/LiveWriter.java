package io.timelinearchive.reliability;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.avro.HoodieAvroUtils;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.WriteStatus;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.model.HoodieAvroPayload;
import org.apache.hudi.common.model.HoodieAvroRecord;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.model.HoodieTableType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.log.HoodieMergedLogRecordScanner;
import org.apache.hudi.common.table.view.FileSystemViewManager;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.collection.ExternalSpillableMap;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.storage.StorageConfiguration;

/**
 * Apache Hudi 0.15's {@link HoodieJavaWriteClient} writing a live table, in a JVM of its own, as a
 * user's writer writes while we archive (see {@link LiveTableIT}): the metadata table on, cleaning
 * inline after every commit, inline compaction on merge-on-read, Hudi's own archival off.
 *
 * <p>{@code write BASE TYPE COMMITS PROGRESS [key=value...]}: commit {@code i} inserts the keys
 * {@code k<i>-0} and {@code k<i>-1} and updates the two keys of commit {@code i-1}, every record
 * carrying the instant time that wrote it; once {@code commit} returned, the instant time goes to
 * the end of {@code PROGRESS} (forced), so that the test knows what the writer completed. Any
 * failed call ends the JVM with exit 1 and the stack trace.
 *
 * <p>{@code read BASE OUT [key=value...]}: Hudi's read path through the metadata table (the latest
 * merged file slices, base file and log files merged by Hudi's scanner) writes {@code key instant}
 * per record to {@code OUT}.
 *
 * <p>The {@code key=value} pairs are Hadoop settings; those starting {@code hoodie.} are Hudi's.
 */
public final class LiveWriter {
  static final String PARTITION = "p0";
  private static final String TABLE = "live";
  private static final Schema SCHEMA =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "row", "namespace": "io.timelinearchive.reliability",
               "fields": [
                 {"name": "key", "type": "string"},
                 {"name": "partition", "type": "string"},
                 {"name": "ts", "type": "long"},
                 {"name": "writer", "type": "string"}]}
              """);

  private LiveWriter() {}

  public static void main(String[] args) throws Exception {
    Configuration hadoop = new Configuration();
    Map<String, String> hoodie = new TreeMap<>();
    int settingsFrom = args[0].equals("write") ? 5 : 3;
    for (int i = settingsFrom; i < args.length; i++) {
      String[] kv = args[i].split("=", 2);
      if (kv[0].startsWith("hoodie.")) {
        hoodie.put(kv[0], kv[1]);
      } else {
        hadoop.set(kv[0], kv[1]);
      }
    }
    StorageConfiguration<Configuration> conf = HadoopFSUtils.getStorageConf(hadoop);
    if (args[0].equals("write")) {
      write(
          conf,
          args[1],
          HoodieTableType.valueOf(args[2]),
          Integer.parseInt(args[3]),
          Path.of(args[4]),
          hoodie);
    } else {
      read(conf, args[1], Path.of(args[2]));
    }
  }

  /** The keys commit {@code i} writes: two new ones and the two of the commit before. */
  static List<String> keys(int i) {
    List<String> keys = new ArrayList<>(List.of(key(i, 0), key(i, 1)));
    if (i > 0) {
      keys.addAll(List.of(key(i - 1, 0), key(i - 1, 1)));
    }
    return keys;
  }

  private static String key(int commit, int k) {
    return "k" + commit + "-" + k;
  }

  private static void write(
      StorageConfiguration<Configuration> conf,
      String base,
      HoodieTableType type,
      int commits,
      Path progress,
      Map<String, String> hoodie)
      throws IOException {
    HoodieJavaEngineContext context = new HoodieJavaEngineContext(conf);
    HoodieTableMetaClient.withPropertyBuilder()
        .setTableType(type)
        .setTableName(TABLE)
        .setRecordKeyFields("key")
        .setPartitionFields("partition")
        .setPreCombineField("ts")
        .setPayloadClass(HoodieAvroPayload.class)
        .setTimelineLayoutVersion(1)
        .initTable(conf, base);
    try (HoodieJavaWriteClient<HoodieAvroPayload> client =
        new HoodieJavaWriteClient<>(context, config(base, type, hoodie))) {
      for (int i = 0; i < commits; i++) {
        String time = client.startCommit();
        List<WriteStatus> statuses = client.upsert(records(i, time), time);
        if (!client.commit(time, statuses)) {
          throw new IllegalStateException("Hudi did not commit " + time);
        }
        try (FileChannel out =
            FileChannel.open(progress, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
          out.write(java.nio.ByteBuffer.wrap((time + "\n").getBytes(UTF_8)));
          out.force(true);
        }
      }
    }
  }

  private static HoodieWriteConfig config(
      String base, HoodieTableType type, Map<String, String> hoodie) {
    Properties p = new Properties();
    p.put("hoodie.table.name", TABLE);
    p.put("hoodie.datasource.write.recordkey.field", "key");
    p.put("hoodie.datasource.write.partitionpath.field", "partition");
    p.put("hoodie.datasource.write.precombine.field", "ts");
    p.put("hoodie.index.type", "INMEMORY");
    p.put("hoodie.metadata.enable", "true");
    p.put("hoodie.embed.timeline.server", "false");
    p.put("hoodie.write.markers.type", "DIRECT");
    // we archive the data table; Hudi still archives its metadata table itself
    p.put("hoodie.archive.automatic", "false");
    p.put("hoodie.clean.automatic", "true");
    p.put("hoodie.auto.commit", "false");
    p.put("hoodie.compact.inline", String.valueOf(type == HoodieTableType.MERGE_ON_READ));
    p.put("hoodie.compact.inline.max.delta.commits", "3");
    p.put("hoodie.cleaner.policy", "KEEP_LATEST_COMMITS");
    p.put("hoodie.cleaner.commits.retained", "2");
    for (String parallelism : List.of("insert", "upsert", "delete", "bulkinsert")) {
      p.put("hoodie." + parallelism + ".shuffle.parallelism", "1");
    }
    p.put("hoodie.cleaner.parallelism", "1");
    p.putAll(hoodie);
    return HoodieWriteConfig.newBuilder()
        .withPath(base)
        .withSchema(SCHEMA.toString())
        .forTable(TABLE)
        .withProps(p)
        .build();
  }

  private static List<HoodieRecord<HoodieAvroPayload>> records(int commit, String time) {
    List<HoodieRecord<HoodieAvroPayload>> records = new ArrayList<>();
    for (String key : keys(commit)) {
      GenericRecord r = new GenericData.Record(SCHEMA);
      r.put("key", key);
      r.put("partition", PARTITION);
      r.put("ts", Long.parseLong(time));
      r.put("writer", time);
      records.add(
          new HoodieAvroRecord<>(
              new HoodieKey(key, PARTITION), new HoodieAvroPayload(Option.of(r))));
    }
    return records;
  }

  private static void read(StorageConfiguration<Configuration> conf, String base, Path out)
      throws IOException {
    HoodieJavaEngineContext context = new HoodieJavaEngineContext(conf);
    HoodieTableMetaClient metaClient =
        HoodieTableMetaClient.builder().setConf(conf).setBasePath(base).build();
    String latest =
        metaClient
            .getActiveTimeline()
            .getCommitsTimeline()
            .filterCompletedInstants()
            .lastInstant()
            .get()
            .getTimestamp();
    Schema schema = HoodieAvroUtils.addMetadataFields(SCHEMA);
    Map<String, String> rows = new TreeMap<>();
    HoodieTableFileSystemView view =
        FileSystemViewManager.createInMemoryFileSystemView(
            context, metaClient, HoodieMetadataConfig.newBuilder().enable(true).build());
    try {
      for (FileSlice slice : view.getLatestMergedFileSlicesBeforeOrOn(PARTITION, latest).toList()) {
        if (slice.getBaseFile().isPresent()) {
          org.apache.hadoop.fs.Path file =
              new org.apache.hadoop.fs.Path(slice.getBaseFile().get().getPath());
          try (org.apache.parquet.hadoop.ParquetReader<GenericRecord> reader =
              org.apache.parquet.avro.AvroParquetReader.<GenericRecord>builder(
                      org.apache.parquet.hadoop.util.HadoopInputFile.fromPath(file, conf.unwrap()))
                  .build()) {
            for (GenericRecord r = reader.read(); r != null; r = reader.read()) {
              rows.put(r.get("key").toString(), r.get("writer").toString());
            }
          }
        }
        // oldest first, as Hudi's readers pass them: the scanner lets a later block win, and a
        // slice lists its log files newest first
        List<String> logs =
            slice
                .getLogFiles()
                .sorted(HoodieLogFile.getLogFileComparator())
                .map(HoodieLogFile::getPath)
                .map(Object::toString)
                .toList();
        if (logs.isEmpty()) {
          continue;
        }
        try (HoodieMergedLogRecordScanner scanner =
            HoodieMergedLogRecordScanner.newBuilder()
                .withStorage(metaClient.getStorage())
                .withBasePath(base)
                .withLogFilePaths(logs)
                .withReaderSchema(schema)
                .withLatestInstantTime(latest)
                .withBufferSize(1 << 20)
                .withMaxMemorySizeInBytes(64L << 20)
                .withSpillableMapBasePath(Files.createTempDirectory("live-writer-spill").toString())
                .withDiskMapType(ExternalSpillableMap.DiskMapType.BITCASK)
                .withTableMetaClient(metaClient)
                .build()) {
          for (HoodieRecord<?> record : scanner.getRecords().values()) {
            @SuppressWarnings("unchecked")
            Option<IndexedRecord> value =
                ((HoodieAvroRecord<HoodieAvroPayload>) record).getData().getInsertValue(schema);
            if (value.isPresent()) {
              GenericRecord r = (GenericRecord) value.get();
              rows.put(r.get("key").toString(), r.get("writer").toString());
            }
          }
        }
      }
    } finally {
      view.close();
    }
    StringBuilder lines = new StringBuilder();
    rows.forEach((k, v) -> lines.append(k).append(' ').append(v).append('\n'));
    Files.writeString(out, lines.toString(), UTF_8);
  }
}
