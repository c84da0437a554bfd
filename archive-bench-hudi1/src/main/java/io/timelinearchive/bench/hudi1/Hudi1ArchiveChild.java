package io.timelinearchive.bench.hudi1;

import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.client.timeline.HoodieTimelineArchiver;
import org.apache.hudi.client.timeline.TimelineArchivers;
import org.apache.hudi.common.model.HoodieAvroPayload;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.table.HoodieJavaTable;

/**
 * One run of Apache Hudi 1.0.1's archiver ({@code TimelineArchiverV2} on a table of version 8) in a
 * process of its own, as its write client's {@code archive()} runs it (the archiver its {@code
 * TimelineArchivers} picks for the table's layout, with the lock taken): {@code TABLE TABLE_NAME
 * [KEY=VALUE ...]}; TABLE a folder or a URI Hadoop reads, settings that start with {@code fs.} go
 * to Hadoop's configuration, the others are Hudi's. Prints {@code HUDI1-ARCHIVED n}, the number of
 * instants Hudi says it archived, and the archiver's class.
 */
public final class Hudi1ArchiveChild {
  private static final String SCHEMA =
      "{\"type\":\"record\",\"name\":\"sample_record\",\"fields\":"
          + "[{\"name\":\"id\",\"type\":\"string\"},{\"name\":\"ts\",\"type\":\"long\"}]}";

  private Hudi1ArchiveChild() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException("usage: TABLE TABLE_NAME [KEY=VALUE ...]");
    }
    Properties p = Hudi1.clientProperties(args[1]);
    p.put("hoodie.archive.automatic", "true");
    Configuration hadoop = new Configuration();
    for (int i = 2; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("setting " + args[i] + " is not KEY=VALUE");
      }
      String key = args[i].substring(0, eq);
      String value = args[i].substring(eq + 1);
      if (key.startsWith("fs.")) {
        hadoop.set(key, value);
      } else {
        p.put(key, value);
      }
    }
    String basePath = Hudi1.basePath(args[0]);
    HoodieJavaEngineContext context =
        new HoodieJavaEngineContext(HadoopFSUtils.getStorageConf(hadoop));
    HoodieWriteConfig config =
        HoodieWriteConfig.newBuilder()
            .withPath(basePath)
            .withSchema(SCHEMA)
            .forTable(args[1])
            .withProps(p)
            .build();
    HoodieTableMetaClient metaClient = Hudi1.metaClient(basePath, hadoop);
    HoodieJavaTable<HoodieAvroPayload> table = HoodieJavaTable.create(config, context, metaClient);
    HoodieTimelineArchiver<HoodieAvroPayload, ?, ?, ?> archiver =
        TimelineArchivers.getInstance(metaClient.getTimelineLayoutVersion(), config, table);
    int archived = archiver.archiveIfRequired(context, true);
    System.out.println("HUDI1-ARCHIVED " + archived + " " + archiver.getClass().getSimpleName());
    System.exit(0);
  }
}
