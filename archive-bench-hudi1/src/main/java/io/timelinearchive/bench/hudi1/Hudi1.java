package io.timelinearchive.bench.hudi1;

import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;

/** What every Hudi 1.0.1 client of the bench shares. */
final class Hudi1 {
  private Hudi1() {}

  /**
   * The settings that make Hudi 1.0.1 work on a local disk, as archive-bench's 0.15 clients have
   * them: no metadata table, no timeline server, direct markers, the in-memory index.
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

  static String basePath(String table) {
    return table.contains("://")
        ? table
        : "file://" + java.nio.file.Path.of(table).toAbsolutePath();
  }

  static HoodieTableMetaClient metaClient(String basePath, Configuration hadoop) {
    return HoodieTableMetaClient.builder()
        .setConf(HadoopFSUtils.getStorageConf(hadoop))
        .setBasePath(basePath)
        .build();
  }
}
