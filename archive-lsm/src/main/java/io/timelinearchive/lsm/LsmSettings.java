package io.timelinearchive.lsm;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.archive.maintenance.LsmHistorySettings;
import java.util.Map;

/**
 * How the LSM history is compacted and cleaned, by Hudi 1.0.1's rules.
 *
 * @param compactionBatchSize {@code hoodie.timeline.compaction.batch.size}: a layer holding this
 *     many files is compacted, its oldest files (at most this many) merged into one
 * @param compactionMaxBytes the merge stops taking files once those taken hold more than this many
 *     bytes (Hudi 1.0.1: a constant, 1000 MiB)
 * @param retainedManifests the newest manifests a clean keeps, besides one more per compaction of
 *     the run (Hudi 1.0.1: a constant, 3)
 */
public record LsmSettings(int compactionBatchSize, long compactionMaxBytes, int retainedManifests) {
  /** Hudi 1.0.1's bound on the bytes one compaction reads ({@code LSMTimelineWriter}). */
  public static final long HUDI_COMPACTION_MAX_BYTES = 1000L * 1024 * 1024;

  /** The manifests Hudi 1.0.1's clean keeps besides those of the run's compactions. */
  public static final int HUDI_RETAINED_MANIFESTS = 3;

  public LsmSettings {
    LsmHistorySettings.COMPACTION_BATCH_SIZE.checked(compactionBatchSize);
    if (compactionMaxBytes < 0) {
      throw new IllegalArgumentException("compactionMaxBytes " + compactionMaxBytes + " < 0");
    }
    if (retainedManifests < 1) {
      throw new IllegalArgumentException("retainedManifests " + retainedManifests + " < 1");
    }
  }

  /** Hudi 1.0.1's defaults. */
  public static LsmSettings defaults() {
    return fromConfig(Map.of());
  }

  /**
   * Reads {@code hoodie.timeline.compaction.batch.size} from {@code config}; other keys are
   * ignored.
   *
   * @throws IllegalArgumentException naming the key and the value when the value is malformed or
   *     less than 1
   */
  public static LsmSettings fromConfig(Map<String, String> config) {
    requireNonNull(config, "config is null");
    return new LsmSettings(
        LsmHistorySettings.COMPACTION_BATCH_SIZE.get(config),
        HUDI_COMPACTION_MAX_BYTES,
        HUDI_RETAINED_MANIFESTS);
  }
}
