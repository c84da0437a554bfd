package io.timelinearchive.hudi;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.config.ConfigCheck;
import io.timelinearchive.config.Setting;
import io.timelinearchive.config.SettingNamespace;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the commit callback runs the archiver, read from the writer's own properties.
 *
 * @param mode {@link #MODE}
 * @param failOnError {@link #FAIL_ON_ERROR}
 * @param hudiArchivesToo {@link #HUDI_AUTOMATIC_ARCHIVAL}: Hudi's inline archiver is on, so the
 *     callback must stay idle
 * @param archiverConfig the writer's properties without the callback's own keys, as the archiver
 *     reads them (Hudi's archival, cleaner and compaction keys, {@code archive.*}, storage keys)
 */
public record CallbackSettings(
    Mode mode, boolean failOnError, boolean hudiArchivesToo, Map<String, String> archiverConfig) {

  /** When the archiver runs, relative to the commit that called it. */
  public enum Mode {
    /** Inside the commit, as Hudi's inline archival does: the commit returns after the run. */
    SYNC,
    /** In a background thread, at most one run per table at a time; the commit returns at once. */
    ASYNC
  }

  static final String PREFIX = "archive.callback.";

  public static final Setting<Mode> MODE =
      Setting.oneOf(PREFIX + "mode", Mode.class)
          .defaultValue(Mode.SYNC)
          .formattedWith(m -> m.name().toLowerCase(java.util.Locale.ROOT))
          .doc(
              "sync archives inside each commit; async in one background run per table at a time"
                  + " (a commit that arrives while one runs starts none)")
          .build();
  public static final Setting<Boolean> FAIL_ON_ERROR =
      Setting.bool(PREFIX + "fail-on-error")
          .defaultValue(false)
          .doc(
              "a failed archival fails the write (async: the table's next commit) instead of being"
                  + " logged once and counted")
          .build();

  /** Hudi's own switch for its inline archiver; two archivers on one table are refused. */
  public static final Setting<Boolean> HUDI_AUTOMATIC_ARCHIVAL =
      Setting.bool("hoodie.archive.automatic")
          .defaultValue(true)
          .doc("must be false for the callback to archive: Hudi's inline archiver is off")
          .build();

  public static final List<Setting<?>> SETTINGS = List.of(MODE, FAIL_ON_ERROR);

  public CallbackSettings {
    requireNonNull(mode, "mode is null");
    archiverConfig = Map.copyOf(archiverConfig);
  }

  /**
   * Reads the callback's settings from a writer's properties and checks every key as the archiver
   * does, the callback's own included.
   *
   * @throws IllegalArgumentException naming the key when a value is malformed or a key of ours is
   *     unknown
   */
  public static CallbackSettings fromConfig(Map<String, String> writerConfig) {
    requireNonNull(writerConfig, "writerConfig is null");
    ConfigCheck.check(writerConfig, namespaces());
    Map<String, String> archiverConfig = new LinkedHashMap<>();
    writerConfig.forEach(
        (key, value) -> {
          if (!key.startsWith(PREFIX)) {
            archiverConfig.put(key, value);
          }
        });
    return new CallbackSettings(
        MODE.get(writerConfig),
        FAIL_ON_ERROR.get(writerConfig),
        HUDI_AUTOMATIC_ARCHIVAL.get(writerConfig),
        archiverConfig);
  }

  /** The archiver's namespaces with the callback's own keys in front. */
  private static List<SettingNamespace> namespaces() {
    List<SettingNamespace> namespaces = new ArrayList<>();
    namespaces.add(SettingNamespace.exclusive(PREFIX, SETTINGS));
    namespaces.addAll(TimelineArchiver.settingNamespaces());
    namespaces.add(SettingNamespace.shared("hoodie.", List.of(HUDI_AUTOMATIC_ARCHIVAL)));
    return namespaces;
  }
}
