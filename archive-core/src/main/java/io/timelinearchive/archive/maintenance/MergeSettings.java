package io.timelinearchive.archive.maintenance;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.Setting;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Merging of small archive files, under Hudi's {@code hoodie.archive.merge.*} keys.
 *
 * @param enabled {@link #ENABLE} if set; unset means on exactly where the store cannot append
 *     (where each run writes a new file), which Hudi's default (off) leaves to pile up
 * @param batchSize merge only when at least this many small files are there ({@link #BATCH_SIZE})
 * @param smallFileLimitBytes a file larger than this is never merged and stops the search for older
 *     candidates ({@link #SMALL_FILE_LIMIT})
 */
public record MergeSettings(Optional<Boolean> enabled, int batchSize, long smallFileLimitBytes) {
  public static final Setting<Boolean> ENABLE =
      Setting.bool("hoodie.archive.merge.enable")
          .documentedDefault("on where the store cannot append (S3, GCS)")
          .doc("merge the newest small archive files into one, Hudi-compatibly")
          .build();
  public static final Setting<Integer> BATCH_SIZE =
      Setting.integer("hoodie.archive.merge.files.batch.size")
          .defaultValue(10)
          .atLeast(2)
          .doc("merge only when at least this many small files are there")
          .build();
  // Hudi's key, so Hudi's grammar: a whole number of bytes.
  public static final Setting<Long> SMALL_FILE_LIMIT =
      Setting.wholeNumber("hoodie.archive.merge.small.file.limit.bytes")
          .defaultValue(20L * 1024 * 1024)
          .atLeast(1L)
          .doc("the candidates are the newest consecutive archive files each at most this large")
          .build();

  public static final List<Setting<?>> SETTINGS = List.of(ENABLE, BATCH_SIZE, SMALL_FILE_LIMIT);

  public MergeSettings {
    requireNonNull(enabled, "enabled is null");
    BATCH_SIZE.checked(batchSize);
    SMALL_FILE_LIMIT.checked(smallFileLimitBytes);
  }

  public static MergeSettings fromConfig(Map<String, String> config) {
    return new MergeSettings(
        ENABLE.find(config), BATCH_SIZE.get(config), SMALL_FILE_LIMIT.get(config));
  }
}
