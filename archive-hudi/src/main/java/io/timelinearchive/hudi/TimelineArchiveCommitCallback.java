package io.timelinearchive.hudi;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.hudi.callback.HoodieWriteCommitCallback;
import org.apache.hudi.callback.common.HoodieWriteCommitCallbackMessage;
import org.apache.hudi.config.HoodieWriteConfig;

/**
 * Archives a Hudi table's timeline after each commit of its writer, in place of Hudi's inline
 * archival. Hudi builds it by reflection when the writer sets
 *
 * <pre>
 * hoodie.write.commit.callback.on=true
 * hoodie.write.commit.callback.class=io.timelinearchive.hudi.TimelineArchiveCommitCallback
 * hoodie.archive.automatic=false
 * </pre>
 *
 * <p>The archiver reads the writer's own properties: Hudi's archival, cleaner and compaction keys,
 * {@code archive.*} and the storage keys of the backend the base path's scheme names. A failed run
 * never fails the commit unless {@code archive.callback.fail-on-error=true}: it is logged once per
 * table and counted ({@link #counts}).
 */
public final class TimelineArchiveCommitCallback implements HoodieWriteCommitCallback {
  private final CallbackSettings settings;
  private final IllegalArgumentException unreadable;
  private final boolean failOnUnreadable;

  /** The constructor Hudi calls ({@code HoodieCommitCallbackFactory}). */
  public TimelineArchiveCommitCallback(HoodieWriteConfig writeConfig) {
    this(properties(requireNonNull(writeConfig, "writeConfig is null").getProps()));
  }

  TimelineArchiveCommitCallback(Map<String, String> writerConfig) {
    CallbackSettings read = null;
    IllegalArgumentException error = null;
    try {
      read = CallbackSettings.fromConfig(writerConfig);
    } catch (IllegalArgumentException e) {
      error = e;
    }
    this.settings = read;
    this.unreadable = error;
    this.failOnUnreadable = error != null && failOnError(writerConfig);
  }

  @Override
  public void call(HoodieWriteCommitCallbackMessage message) {
    committed(message.getBasePath(), message.getCommitTime());
  }

  void committed(String basePath, String commitTime) {
    if (unreadable != null) {
      TableArchivals.shared()
          .unreadableSettings(basePath, commitTime, unreadable, failOnUnreadable);
      return;
    }
    TableArchivals.shared().committed(basePath, commitTime, settings);
  }

  /** What the callback did for the table at {@code basePath} in this JVM so far. */
  public static CallbackCounts counts(String basePath) {
    return CallbackCounts.forTable(basePath);
  }

  /** The writer's properties as text, as it wrote them (Hudi's defaults filled in). */
  static Map<String, String> properties(Properties props) {
    Map<String, String> config = new LinkedHashMap<>();
    for (String key : props.stringPropertyNames()) {
      config.put(key, props.getProperty(key));
    }
    return config;
  }

  /** Whether the writer asked for failures to fail the write, when its other settings are bad. */
  private static boolean failOnError(Map<String, String> writerConfig) {
    try {
      return CallbackSettings.FAIL_ON_ERROR.get(writerConfig);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
