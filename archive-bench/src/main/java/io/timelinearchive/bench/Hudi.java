package io.timelinearchive.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.client.HoodieTimelineArchiver;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.model.HoodieAvroPayload;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.storage.StorageConfiguration;
import org.apache.hudi.table.HoodieJavaTable;

/**
 * Apache Hudi 0.15's own archiver and archived-timeline reader, driven as its Java write client
 * drives them (as archive-hudi-compat's tests do), on a table on the local disk.
 */
final class Hudi {
  private static final String SCHEMA =
      "{\"type\":\"record\",\"name\":\"sample_record\",\"fields\":"
          + "[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"ts\",\"type\":\"long\"}]}";

  private Hudi() {}

  private static StorageConfiguration<Configuration> storageConf() {
    return HadoopFSUtils.getStorageConf(new Configuration());
  }

  private static String uri(Path table) {
    return "file://" + table.toAbsolutePath();
  }

  static HoodieTableMetaClient metaClient(Path table) {
    return HoodieTableMetaClient.builder().setConf(storageConf()).setBasePath(uri(table)).build();
  }

  /**
   * The settings every Hudi client of the bench shares, those that make it work on a local disk
   * (docs/HUDI-FORMAT.md §6): no metadata table, no timeline server, direct markers, the in-memory
   * index.
   */
  static Properties clientProperties(String tableName) {
    Properties p = new Properties();
    p.put("hoodie.table.name", tableName);
    p.put("hoodie.metadata.enable", "false");
    p.put("hoodie.embed.timeline.server", "false");
    p.put("hoodie.write.markers.type", "DIRECT");
    p.put("hoodie.index.type", "INMEMORY");
    return p;
  }

  /** One run of Hudi's archiver with {@code settings} (Hudi's keys), as after a commit. */
  static boolean archive(Path table, String tableName, Map<String, String> settings)
      throws IOException {
    return archive(uri(table), new Configuration(), tableName, settings);
  }

  /**
   * One run of Hudi's archiver on the table at {@code basePath} (any file system Hadoop has, e.g.
   * {@code s3a://bucket/table} with {@code hadoopConf}'s {@code fs.s3a.*} settings).
   */
  static boolean archive(
      String basePath, Configuration hadoopConf, String tableName, Map<String, String> settings)
      throws IOException {
    StorageConfiguration<Configuration> conf = HadoopFSUtils.getStorageConf(hadoopConf);
    HoodieJavaEngineContext context = new HoodieJavaEngineContext(conf);
    Properties p = clientProperties(tableName);
    p.put("hoodie.archive.automatic", "true");
    p.putAll(settings);
    HoodieWriteConfig config =
        HoodieWriteConfig.newBuilder()
            .withPath(basePath)
            .withSchema(SCHEMA)
            .forTable(tableName)
            .withProps(p)
            .build();
    HoodieTableMetaClient metaClient =
        HoodieTableMetaClient.builder().setConf(conf).setBasePath(basePath).build();
    HoodieJavaTable<HoodieAvroPayload> hoodieTable =
        HoodieJavaTable.create(config, context, metaClient);
    HoodieTimelineArchiver<HoodieAvroPayload, ?, ?, ?> archiver =
        new HoodieTimelineArchiver<>(config, hoodieTable);
    return archiver.archiveIfRequired(context);
  }

  /** Hudi's archived timeline, instants only (it decodes every entry whole all the same). */
  static int readMetadata(Path table) {
    return new HoodieArchivedTimeline(metaClient(table)).countInstants();
  }

  /**
   * Hudi's archived timeline with the details of completed instants, in one pass (the constructor
   * with a start time loads completed instants and their details).
   */
  static int readWithDetails(Path table) {
    HoodieArchivedTimeline timeline = new HoodieArchivedTimeline(metaClient(table), "0");
    long withDetails =
        timeline
            .getInstantsAsStream()
            .filter(i -> timeline.getInstantDetails(i).isPresent())
            .count();
    if (withDetails == 0 && timeline.countInstants() > 0) {
      throw new IllegalStateException("Hudi loaded no details");
    }
    return timeline.countInstants();
  }
}
