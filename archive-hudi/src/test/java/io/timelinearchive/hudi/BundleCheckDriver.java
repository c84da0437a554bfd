package io.timelinearchive.hudi;

import io.timelinearchive.storage.MetaStorages;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hudi.common.model.HoodieTableType;

/**
 * What archive-hudi-bundle's check runs in a class loader holding the bundle jar and Hudi 0.15's
 * jars: a Java-client writer with the callback, answered in JDK types only, which cross loaders.
 */
public final class BundleCheckDriver {
  private BundleCheckDriver() {}

  /**
   * Writes {@code commits} commits to a new table in {@code dir} with the callback on.
   *
   * @return the callback's counts, the most completed commits seen active, where the callback and
   *     Avro were loaded from, and the storage schemes the backends found serve
   */
  public static Map<String, String> write(String dir, int commits) throws Exception {
    Map<String, String> result = new LinkedHashMap<>();
    int mostCommits = 0;
    try (JavaClientWriter writer =
        JavaClientWriter.create(
            Path.of(dir), HoodieTableType.COPY_ON_WRITE, JavaClientWriter.callbackOptions())) {
      for (int i = 0; i < commits; i++) {
        writer.commit();
        mostCommits = Math.max(mostCommits, HudiTimelines.activeCommits(writer.metaClient()));
      }
      CallbackCounts counts = TimelineArchiveCommitCallback.counts(writer.basePath());
      result.put("runs", String.valueOf(counts.runs()));
      result.put("failures", String.valueOf(counts.failures()));
      result.put("lastFailure", counts.lastFailure());
      result.put("instantsArchived", String.valueOf(counts.instantsArchived()));
      result.put("mostActiveCommits", String.valueOf(mostCommits));
    }
    result.put("callbackFrom", source(TimelineArchiveCommitCallback.class));
    result.put("hudiAvroFrom", source(org.apache.avro.Schema.class));
    result.put(
        "schemes",
        String.join(
            ",",
            new TreeSet<>(
                MetaStorages.discover(BundleCheckDriver.class.getClassLoader()).keySet())));
    return result;
  }

  private static String source(Class<?> type) {
    return type.getProtectionDomain().getCodeSource().getLocation().toString();
  }
}
