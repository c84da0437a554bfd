package io.timelinearchive.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * One run of Apache Hudi 0.15's {@code HoodieTimelineArchiver} in a process of its own: {@code
 * TABLE TABLE_NAME [KEY=VALUE ...]}; TABLE a folder or a URI Hadoop reads ({@code s3a://...}),
 * settings that start with {@code fs.} go to Hadoop's configuration, the others are Hudi's archival
 * settings, over P1's.
 */
public final class HudiArchiveChild {
  private HudiArchiveChild() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      throw new IllegalArgumentException("usage: TABLE TABLE_NAME [KEY=VALUE ...]");
    }
    Map<String, String> settings = new HashMap<>(ArchivalFigure.SETTINGS);
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
        settings.put(key, value);
      }
    }
    String table =
        args[0].contains("://") ? args[0] : "file://" + Path.of(args[0]).toAbsolutePath();
    if (!Hudi.archive(table, hadoop, args[1], settings)) {
      System.err.println("Hudi's archiver reports failure on " + args[0]);
      System.exit(1);
    }
    System.exit(0);
  }
}
