package io.timelinearchive.select;

import static java.util.Objects.requireNonNull;

import io.timelinearchive.config.ConfigValues;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What may be archived: Hudi 0.15's archival settings under Hudi's own keys and defaults, plus two
 * options of ours ({@value #RETAIN_MIN_AGE}, {@value #MAX_INSTANTS_PER_RUN}).
 *
 * @param minCommits {@value #MIN_COMMITS}: completed commits (and instants of each of clean and
 *     rollback) kept when trimming; Hudi may widen it, see {@link ArchivalPlan#minCommits()}
 * @param maxCommits {@value #MAX_COMMITS}: trimming starts above this many
 * @param archivalBatch {@value #ARCHIVAL_BATCH}: records per archive log block
 * @param failOnArchivingError {@value #FAIL_ON_ARCHIVING}: fail the run on an unreadable instant
 *     file rather than stop before it
 * @param archiveBeyondSavepoint {@value #ARCHIVE_BEYOND_SAVEPOINT}: archive commits after the first
 *     savepoint, skipping only the savepointed ones
 * @param cleanerPolicy {@value #CLEANER_POLICY}: decides how Hudi widens min/max
 * @param cleanerCommitsRetained {@value #CLEANER_COMMITS_RETAINED}
 * @param cleanerHoursRetained {@value #CLEANER_HOURS_RETAINED}
 * @param compactionMaxDeltaCommits {@value #COMPACTION_MAX_DELTA_COMMITS}: merge-on-read tables
 *     keep this many delta commits since the last compaction
 * @param compactionTrigger {@value #COMPACTION_TRIGGER}
 * @param retainMinAge {@value #RETAIN_MIN_AGE}: instants younger than this are never archived
 * @param maxInstantsPerRun {@value #MAX_INSTANTS_PER_RUN}: at most this many instants per run
 */
public record ArchivalPolicy(
    int minCommits,
    int maxCommits,
    int archivalBatch,
    boolean failOnArchivingError,
    boolean archiveBeyondSavepoint,
    CleanerPolicy cleanerPolicy,
    int cleanerCommitsRetained,
    int cleanerHoursRetained,
    int compactionMaxDeltaCommits,
    CompactionTrigger compactionTrigger,
    Optional<Duration> retainMinAge,
    OptionalInt maxInstantsPerRun) {

  public static final String MIN_COMMITS = "hoodie.keep.min.commits";
  public static final String MAX_COMMITS = "hoodie.keep.max.commits";
  public static final String ARCHIVAL_BATCH = "hoodie.commits.archival.batch";
  public static final String FAIL_ON_ARCHIVING = "hoodie.fail.on.timeline.archiving";
  public static final String ARCHIVE_BEYOND_SAVEPOINT = "hoodie.archive.beyond.savepoint";
  public static final String CLEANER_POLICY = "hoodie.cleaner.policy";
  public static final String CLEANER_COMMITS_RETAINED = "hoodie.cleaner.commits.retained";
  public static final String CLEANER_HOURS_RETAINED = "hoodie.cleaner.hours.retained";
  public static final String COMPACTION_MAX_DELTA_COMMITS =
      "hoodie.compact.inline.max.delta.commits";
  public static final String COMPACTION_TRIGGER = "hoodie.compact.inline.trigger.strategy";
  public static final String RETAIN_MIN_AGE = "archive.retain.min-age";
  public static final String MAX_INSTANTS_PER_RUN = "archive.max-instants-per-run";

  /** Hudi's {@code HoodieCleaningPolicy}; it decides how the archiver widens min/max. */
  public enum CleanerPolicy {
    KEEP_LATEST_COMMITS,
    KEEP_LATEST_FILE_VERSIONS,
    KEEP_LATEST_BY_HOURS
  }

  /** Hudi's {@code CompactionTriggerStrategy}. */
  public enum CompactionTrigger {
    NUM_COMMITS,
    NUM_COMMITS_AFTER_LAST_REQUEST,
    TIME_ELAPSED,
    NUM_AND_TIME,
    NUM_OR_TIME;

    /** Whether merge-on-read tables keep enough delta commits to schedule the next compaction. */
    boolean countsDeltaCommits() {
      return this == NUM_COMMITS || this == NUM_AND_TIME;
    }
  }

  public ArchivalPolicy {
    requireNonNull(cleanerPolicy, "cleanerPolicy is null");
    requireNonNull(compactionTrigger, "compactionTrigger is null");
    requireNonNull(retainMinAge, "retainMinAge is null");
    requireNonNull(maxInstantsPerRun, "maxInstantsPerRun is null");
    if (minCommits < 1) {
      throw new IllegalArgumentException(MIN_COMMITS + "=" + minCommits + " must be at least 1");
    }
    if (minCommits >= maxCommits) {
      throw new IllegalArgumentException(
          MIN_COMMITS + "=" + minCommits + " must be less than " + MAX_COMMITS + "=" + maxCommits);
    }
    if (archivalBatch < 1) {
      throw new IllegalArgumentException(
          ARCHIVAL_BATCH + "=" + archivalBatch + " must be at least 1");
    }
    if (cleanerCommitsRetained < 0) {
      throw new IllegalArgumentException(
          CLEANER_COMMITS_RETAINED + "=" + cleanerCommitsRetained + " must not be negative");
    }
    if (cleanerHoursRetained < 0) {
      throw new IllegalArgumentException(
          CLEANER_HOURS_RETAINED + "=" + cleanerHoursRetained + " must not be negative");
    }
    if (compactionMaxDeltaCommits < 1) {
      throw new IllegalArgumentException(
          COMPACTION_MAX_DELTA_COMMITS + "=" + compactionMaxDeltaCommits + " must be at least 1");
    }
    if (retainMinAge.isPresent() && retainMinAge.get().isNegative()) {
      throw new IllegalArgumentException(
          RETAIN_MIN_AGE + "=" + retainMinAge.get() + " must not be negative");
    }
    if (maxInstantsPerRun.isPresent() && maxInstantsPerRun.getAsInt() < 1) {
      throw new IllegalArgumentException(
          MAX_INSTANTS_PER_RUN + "=" + maxInstantsPerRun.getAsInt() + " must be at least 1");
    }
  }

  /** Hudi's defaults, no minimum age and no cap. */
  public static ArchivalPolicy defaults() {
    return fromConfig(Map.of());
  }

  /**
   * Reads the keys this class names from {@code config}; other keys are ignored, since other parts
   * of the archiver read them.
   *
   * @throws IllegalArgumentException naming the key and the value when a value is malformed or out
   *     of range
   */
  public static ArchivalPolicy fromConfig(Map<String, String> config) {
    requireNonNull(config, "config is null");
    return new ArchivalPolicy(
        ConfigValues.intValue(config, MIN_COMMITS, 20),
        ConfigValues.intValue(config, MAX_COMMITS, 30),
        ConfigValues.intValue(config, ARCHIVAL_BATCH, 10),
        ConfigValues.booleanValue(config, FAIL_ON_ARCHIVING, true),
        ConfigValues.booleanValue(config, ARCHIVE_BEYOND_SAVEPOINT, false),
        ConfigValues.enumValue(
            config, CLEANER_POLICY, CleanerPolicy.class, CleanerPolicy.KEEP_LATEST_COMMITS),
        ConfigValues.intValue(config, CLEANER_COMMITS_RETAINED, 10),
        ConfigValues.intValue(config, CLEANER_HOURS_RETAINED, 24),
        ConfigValues.intValue(config, COMPACTION_MAX_DELTA_COMMITS, 5),
        ConfigValues.enumValue(
            config, COMPACTION_TRIGGER, CompactionTrigger.class, CompactionTrigger.NUM_COMMITS),
        ConfigValues.duration(config, RETAIN_MIN_AGE),
        ConfigValues.optionalInt(config, MAX_INSTANTS_PER_RUN));
  }

  /** A duration the way {@value #RETAIN_MIN_AGE} accepts it, written back short: {@code 7d}. */
  static String formatDuration(Duration duration) {
    long millis = duration.toMillis();
    if (millis != 0 && millis % 86_400_000L == 0) {
      return millis / 86_400_000L + "d";
    }
    if (millis != 0 && millis % 3_600_000L == 0) {
      return millis / 3_600_000L + "h";
    }
    if (millis != 0 && millis % 60_000L == 0) {
      return millis / 60_000L + "m";
    }
    if (millis % 1000 == 0) {
      return millis / 1000 + "s";
    }
    return millis + "ms";
  }
}
